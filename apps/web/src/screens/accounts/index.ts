/**
 * Cardholders, card accounts, account groups, real cards, card applications and My Cards: the screens routes.tsx shows — this folder's public surface (docs/architecture.md).
 */
export { AccountGroupsScreen } from './account-groups-screen.tsx';
export { AccountSearchScreen } from './account-search-screen.tsx';
export { AccountViewScreen } from './account-view-screen.tsx';
export { CardApplicationsScreen } from './card-applications-screen.tsx';
export { CardholderSearchScreen } from './cardholder-search-screen.tsx';
export { CardholderViewScreen } from './cardholder-view-screen.tsx';
export { MyCardsScreen } from './my-cards-screen.tsx';
export { RealCardsScreen } from './real-cards-screen.tsx';
