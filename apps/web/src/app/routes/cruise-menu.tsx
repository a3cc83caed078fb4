export { CruiseMenuScreen as CruiseMenuRoute } from '../../features/cruise-menu/cruise-menu-screen';
