import type { Kysely } from 'kysely';
import { type Static, Type } from 'typebox';
import type { Database } from '../../../db/schema.ts';
import { Errors } from '../../../errors.ts';
import type { AuditRepo } from '../../audit/index.ts';
import { DEFAULT_PHONE_REGION, isPhoneRegion, type ScrubOptions } from './scrubber.ts';

/**
 * An account's scrubbing settings (`GET` / `PUT /v2/vault/settings/pii`): the region whose
 * national phone formats are read without a country code. Every store, search and text check of
 * the account scrubs with it, so a query is scrubbed as the claims it should find were. An
 * account without a row uses `US`. Names become pseudonyms keyed by the account id (see
 * `ScrubOptions.pseudonymKey`).
 */

export const PiiSettingsBody = Type.Object(
  {
    phone_region: Type.String({
      minLength: 2,
      maxLength: 2,
      description:
        'ISO 3166-1 alpha-2 region (e.g. "GB", "DE", "JP") whose national phone formats are read without a country code; numbers written with +<country code> are read in every region',
      examples: ['GB'],
    }),
  },
  { additionalProperties: false },
);

export const PiiSettingsResponse = Type.Object({
  phone_region: Type.String(),
  /** When the account last changed it; null while the default applies. */
  updated_at: Type.Union([Type.String(), Type.Null()]),
});

export type PiiSettings = Static<typeof PiiSettingsResponse>;

export function createPiiSettings(db: Kysely<Database>, audit: Pick<AuditRepo, 'appendIn'>) {
  async function get(accountId: string): Promise<PiiSettings> {
    const row = await db
      .selectFrom('ledger_settings')
      .select(['phone_region', 'updated_at'])
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row ?? { phone_region: DEFAULT_PHONE_REGION, updated_at: null };
  }

  return {
    get,

    async put(accountId: string, actor: string, body: { phone_region: string }): Promise<PiiSettings> {
      const region = body.phone_region.toUpperCase();
      if (!isPhoneRegion(region)) {
        throw Errors.validation(
          `phone_region must be an ISO 3166-1 alpha-2 region with a numbering plan (e.g. "GB", "DE", "JP"); "${body.phone_region}" is not one`,
        );
      }
      const at = new Date().toISOString();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('ledger_settings')
          .values({ account_id: accountId, phone_region: region, updated_at: at })
          .onConflict((oc) => oc.column('account_id').doUpdateSet({ phone_region: region, updated_at: at }))
          .execute();
        await audit.appendIn(trx, [
          {
            accountId,
            actor,
            action: 'settings.pii.updated',
            target: accountId,
            details: { phone_region: region },
            at,
          },
        ]);
      });
      return { phone_region: region, updated_at: at };
    },

    /** What `scrub` is called with for the account: its region, and its id as the pseudonym key. */
    async scrubOptions(accountId: string): Promise<ScrubOptions> {
      const { phone_region } = await get(accountId);
      return { pseudonymKey: accountId, ...(isPhoneRegion(phone_region) ? { region: phone_region } : {}) };
    },
  };
}

export type PiiSettingsStore = ReturnType<typeof createPiiSettings>;
