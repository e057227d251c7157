import { type Static, Type } from 'typebox';
import { Errors } from '../../../errors.ts';
import type { AuditRepo } from '../../audit/index.ts';
import type { LedgerRepo } from '../repo.ts';
import { DEFAULT_PHONE_REGION, isPhoneRegion, type ScrubOptions } from './scrubber.ts';

/**
 * An account's scrubbing settings (`GET` / `PUT /v2/vault/settings/pii`): the region whose
 * national phone formats are read without a country code, and how person names are kept. Every
 * store, search and text check of the account scrubs with them, so a query is scrubbed as the
 * claims it should find were. An account without a row uses `US` and `pseudonymize`: each word
 * of a name becomes a pseudonym keyed by the account id (see `ScrubOptions.pseudonymKey`).
 */

export const NAMES_MODES = ['pseudonymize', 'redact', 'keep'] as const;
export type NamesMode = (typeof NAMES_MODES)[number];
export const DEFAULT_NAMES_MODE: NamesMode = 'pseudonymize';

const NamesSchema = Type.Union([Type.Literal('pseudonymize'), Type.Literal('redact'), Type.Literal('keep')], {
  description:
    'pseudonymize (default): each word of a name becomes a pseudonym keyed by the account, the same in claims and queries; redact: an irreversible <PERSON>; keep: names are stored as written. Applies to claims stored and queries asked from now on',
});

export const PiiSettingsBody = Type.Object(
  {
    phone_region: Type.Optional(
      Type.String({
        minLength: 2,
        maxLength: 2,
        description:
          'ISO 3166-1 alpha-2 region (e.g. "GB", "DE", "JP") whose national phone formats are read without a country code; numbers written with +<country code> are read in every region',
        examples: ['GB'],
      }),
    ),
    names: Type.Optional(NamesSchema),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const PiiSettingsResponse = Type.Object({
  phone_region: Type.String(),
  names: NamesSchema,
  /** When the account last changed it; null while the default applies. */
  updated_at: Type.Union([Type.String(), Type.Null()]),
});

export type PiiSettings = Static<typeof PiiSettingsResponse>;

export function createPiiSettings(
  repo: Pick<LedgerRepo, 'piiSettings' | 'savePiiSettings' | 'transaction'>,
  audit: Pick<AuditRepo, 'appendIn'>,
) {
  async function get(accountId: string): Promise<PiiSettings> {
    const row = await repo.piiSettings(accountId);
    if (!row) return { phone_region: DEFAULT_PHONE_REGION, names: DEFAULT_NAMES_MODE, updated_at: null };
    return { ...row, names: isNamesMode(row.names) ? row.names : DEFAULT_NAMES_MODE };
  }

  return {
    get,

    /** Changes the settings given; the others keep their value. */
    async put(
      accountId: string,
      actor: string,
      body: { phone_region?: string; names?: NamesMode },
    ): Promise<PiiSettings> {
      const current = await get(accountId);
      const region = (body.phone_region ?? current.phone_region).toUpperCase();
      if (!isPhoneRegion(region)) {
        throw Errors.validation(
          `phone_region must be an ISO 3166-1 alpha-2 region with a numbering plan (e.g. "GB", "DE", "JP"); "${body.phone_region}" is not one`,
        );
      }
      const names = body.names ?? current.names;
      const at = new Date().toISOString();
      await repo.transaction(async (trx) => {
        await repo.savePiiSettings(trx, {
          account_id: accountId,
          phone_region: region,
          names,
          updated_at: at,
        });
        await audit.appendIn(trx, [
          {
            accountId,
            actor,
            action: 'settings.pii.updated',
            target: accountId,
            details: { phone_region: region, names },
            at,
          },
        ]);
      });
      return { phone_region: region, names, updated_at: at };
    },

    /**
     * What `scrub` is called with for the account: its region and, for names, its id as the
     * pseudonym key (`pseudonymize`), no key (`redact`: `<PERSON>`) or no name detection (`keep`).
     */
    async scrubOptions(accountId: string): Promise<ScrubOptions> {
      const { phone_region, names } = await get(accountId);
      const region = isPhoneRegion(phone_region) ? { region: phone_region } : {};
      if (names === 'keep') return { names: false, ...region };
      if (names === 'redact') return region;
      return { pseudonymKey: accountId, ...region };
    },
  };
}

function isNamesMode(value: string): value is NamesMode {
  return (NAMES_MODES as readonly string[]).includes(value);
}

export type PiiSettingsStore = ReturnType<typeof createPiiSettings>;
