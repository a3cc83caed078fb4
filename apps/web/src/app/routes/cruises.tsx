export { CruisesScreen as CruisesRoute } from '../../features/cruises/cruises-screen';
