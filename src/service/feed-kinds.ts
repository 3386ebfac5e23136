/** The account feed's kinds live in the contract (src/contract/kinds.ts); src/service/webhooks/account.ts still imports them from here. */
export { FEED_KINDS, type FeedKind } from '../contract/kinds.js';
