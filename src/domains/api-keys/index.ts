/** What other code may use of api-keys: the key format, the service's types and the revocation port. */
export { isWellFormedKey, maskKey } from './key-format.ts';
export type { Principal } from './principal.ts';
export { DEFAULT_KEY_ROLE, isKeyRole, KEY_ROLES, type KeyRole, keyRoleOf, roleAllows } from './roles.ts';
export type { ApiKeysService, CreatedKey, RevocationBus } from './service.ts';
