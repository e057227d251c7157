/** What other code may use of api-keys: the key format, the service's types and the revocation port. */
export { isWellFormedKey, maskKey } from './key-format.ts';
export type { ApiKeysService, CreatedKey, Principal, RevocationBus } from './service.ts';
