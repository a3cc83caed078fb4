export { LoweringsScreen as LoweringsRoute } from '../../features/lowerings/lowerings-screen';
