// Generated from the service's OpenAPI document by `npm run sdk:generate`. Do not edit.
// A test regenerates it and fails when this file differs.

export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where to go from here: the console, the API reference, health */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            console: string;
                            docs: string;
                            health: string;
                            name: string;
                            openapi: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the keys of the calling account, masked, oldest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            calls_this_month: number;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            id: string;
                            /** @description Masked: arbiter_sk_…last4 */
                            key: string;
                            name: string;
                            revoked_at: string | null;
                            /** @description agent: evaluate, judge and memory; operator: + escalation decisions, settings, policies, webhooks, audit, usage; admin: + keys, billing, GDPR */
                            role: "agent" | "operator" | "admin";
                            status: "active" | "revoked";
                        }[];
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create an API key of a role, agent by default (the secret is returned once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A label for the key */
                        name: string;
                        /** @description agent: evaluate, judge and memory; operator: + escalation decisions, settings, policies, webhooks, audit, usage; admin: + keys, billing, GDPR */
                        role?: "agent" | "operator" | "admin";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            id: string;
                            /** @description The secret key. Shown once; store it now. */
                            key: string;
                            name: string;
                            /** @description agent: evaluate, judge and memory; operator: + escalation decisions, settings, policies, webhooks, audit, usage; admin: + keys, billing, GDPR */
                            role: "agent" | "operator" | "admin";
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a key, permanently (a key already revoked answers 404 NOT_FOUND) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    key_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success: boolean;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's audit log, oldest first; follow next_cursor for more */
        get: {
            parameters: {
                query?: {
                    /** @description next_cursor of the previous page */
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entries: {
                                action: string;
                                /** @description An API key id, operator, system, checkout or stripe */
                                actor: string;
                                /** Format: date-time */
                                at: string;
                                details: {
                                    [key: string]: unknown;
                                };
                                hash: string;
                                id: string;
                                prev_hash: string;
                                seq: number;
                                target: string | null;
                            }[];
                            next_cursor: string | null;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit-log/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Re-walks the account's hash chain and names the first entry that does not hold */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entries: number;
                            first_bad_id?: string;
                            first_bad_seq?: number;
                            reason?: string;
                            /** @enum {boolean} */
                            success: true;
                            valid: boolean;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billing/usage/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This month's calls (by endpoint, day and key) and their cost */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            by_day: {
                                calls: number;
                                day: string;
                            }[];
                            by_endpoint: {
                                calls: number;
                                endpoint: string;
                            }[];
                            by_key: {
                                calls: number;
                                key_id: string;
                                name: string | null;
                            }[];
                            /** @description How total_cost_usd was computed */
                            cost: {
                                /** @description Equal to total_cost_usd */
                                amount_usd: number;
                                /**
                                 * Format: date-time
                                 * @description The start of the usage period, or when the plan became active if later
                                 */
                                charged_from: string;
                                explanation: string;
                                price_usd_month: number;
                                /** @description True when the plan was active for only part of the usage period */
                                prorated: boolean;
                                share_of_month: number;
                            };
                            monthly_call_allowance: number | null;
                            /** @description The usage period (see usage_period): the calendar month in UTC */
                            period: {
                                end: string;
                                start: string;
                            };
                            plan: string;
                            remaining_calls: number | null;
                            /** @description The current period of the paid subscription, as the provider renews and invoices it (it can start on any day, e.g. the 23rd); null without an active subscription. */
                            subscription_period: {
                                /** Format: date-time */
                                end: string;
                                /** Format: date-time */
                                start: string;
                            } | null;
                            /** @enum {boolean} */
                            success: true;
                            /** @description Calls in the usage period */
                            total_api_calls: number;
                            /** @description The plan's price for the usage period, prorated when the plan became active during it (see cost) */
                            total_cost_usd: number;
                            /** @description The period API calls are counted in: the calendar month in UTC, whatever the dates of the subscription period. */
                            usage_period: {
                                /** @enum {string} */
                                basis: "calendar_month_utc";
                                /** Format: date-time */
                                end: string;
                                note: string;
                                /** Format: date-time */
                                start: string;
                            };
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gdpr/delete-account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete the account and all its data (Article 17); the audit log is retained
         * @description A paid subscription is cancelled at the billing provider first. When the provider cannot be reached or refuses, the answer is 503 and nothing is deleted: try again.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            rows_removed: {
                                [key: string]: number;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gdpr/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every record of the account (Article 20) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Also: billing, usage, webhooks, and any other section a domain registers */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Masked; a secret is never exported */
                            api_keys: unknown[];
                            audit_log: unknown[];
                            evaluations: unknown[];
                            /** Format: date-time */
                            exported_at: string;
                            ledger_entries: unknown[];
                            profile: unknown;
                            /** @enum {boolean} */
                            success: true;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process is up */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ledger/propose_state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Commit a claim (short form of /v2/vault/store; ids are short ids) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The statement */
                        claim: string;
                        /** @description How sure the source is, in [0, 1] */
                        confidence: number;
                        /** @description The ledger state hash (64 hex characters) the request relies on; another current state is STATE_DRIFT. If-Match may carry it instead. */
                        expected_state_hash?: string;
                        /** @description keep (default): store and report conflicts; reject: 409, nothing stored; supersede: older conflicting claims leave search */
                        on_conflict?: "keep" | "reject" | "supersede";
                        /** @description Where the claim comes from */
                        source?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            conflicts: {
                                claim: string;
                                confidence: number;
                                id: string;
                                /** @description negation | antonym | value_mismatch | entity_mismatch */
                                kind: string;
                                reason: string;
                                short_id: string;
                                similarity: number;
                            }[];
                            /** @description Short id of the claim */
                            id: string;
                            /** @description Personal data replaced before storage, by type and count (never the values) */
                            scrubbed: {
                                [key: string]: number;
                            };
                            state_hash: string;
                            /** @enum {string} */
                            status: "committed";
                            /** Format: uuid */
                            uuid: string;
                            vector_stored: boolean;
                            version: number;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ledger/semantic_search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Facts relevant to a query (short form of /v2/vault/search) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        query: string;
                        /** @default 5 */
                        top_k?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            facts: {
                                claim: string;
                                confidence: number;
                                id: string;
                                /** Format: date-time */
                                timestamp: string;
                            }[];
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * MCP over streamable HTTP (stateless): evaluate_action, judge_action, remember, recall
         * @description A JSON-RPC message of the Model Context Protocol; the answer is JSON.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The database answers and migrations are applied */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscription/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a checkout for a plan; a person completes it at checkout_url */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Absolute http(s) URL */
                        cancel_url: string;
                        plan_id: string;
                        /** @description Absolute http(s) URL */
                        success_url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Where a person confirms and pays */
                            checkout_url: string;
                            /** Format: date-time */
                            expires_at: string;
                            provider: string;
                            session_id: string;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscription/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The plans on offer */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            plans: {
                                currency: string;
                                features: string[];
                                id: string;
                                max_api_keys: number | null;
                                monthly_call_allowance: number | null;
                                name: string;
                                price_usd_month: number;
                                purchasable: boolean;
                            }[];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscription/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Plan, status, plan details and the current billing period */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description subscription_period when there is an active subscription, else the calendar month (UTC) */
                            billing_period: {
                                /** Format: date-time */
                                end: string;
                                /** Format: date-time */
                                start: string;
                            };
                            plan: string;
                            plan_details: {
                                currency: string;
                                features: string[];
                                id: string;
                                max_api_keys: number | null;
                                monthly_call_allowance: number | null;
                                name: string;
                                price_usd_month: number;
                            };
                            /** @description local, stripe, or none (never subscribed) */
                            provider: string;
                            status: "active" | "past_due" | "canceled";
                            subscribed_since: string | null;
                            /** @description The current period of the paid subscription, as the provider renews and invoices it (it can start on any day, e.g. the 23rd); null without an active subscription. */
                            subscription_period: {
                                /** Format: date-time */
                                end: string;
                                /** Format: date-time */
                                start: string;
                            } | null;
                            /** @enum {boolean} */
                            success: true;
                            /** @description The period API calls are counted in: the calendar month in UTC, whatever the dates of the subscription period. */
                            usage_period: {
                                /** @enum {string} */
                                basis: "calendar_month_utc";
                                /** Format: date-time */
                                end: string;
                                note: string;
                                /** Format: date-time */
                                start: string;
                            };
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Built-in actions and the account's own, with their payload schemas */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            actions: {
                                builtin: boolean;
                                /** Format: date-time */
                                created_at?: string;
                                name: string;
                                schema: {
                                    [key: string]: unknown;
                                };
                                /** Format: date-time */
                                updated_at?: string;
                            }[];
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/actions/{action}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One action and its payload schema */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Action name */
                    action: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            builtin: boolean;
                            /** Format: date-time */
                            created_at?: string;
                            name: string;
                            schema: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            updated_at?: string;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Register or replace a custom action (201 when new); built-in names are refused with 409 */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Action name */
                    action: string;
                };
                cookie?: never;
            };
            /** @description A JSON Schema (draft-07) describing the payload object */
            requestBody: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            builtin: boolean;
                            /** Format: date-time */
                            created_at?: string;
                            name: string;
                            schema: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            updated_at?: string;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            builtin: boolean;
                            /** Format: date-time */
                            created_at?: string;
                            name: string;
                            schema: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            updated_at?: string;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        /** Remove a custom action; built-in actions cannot be removed (409) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Action name */
                    action: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success: boolean;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/catalogue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The destructive-operation catalogue: built-in rule families and the account's own rules */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                count: number;
                                /** @description Part of the policy version of every verdict; empty when none */
                                digest: string;
                                /** @description Rules in the catalogue format (docs: src/domains/verdict/catalogue/README.md) */
                                rules: {
                                    [key: string]: unknown;
                                }[];
                                /** Format: date-time */
                                updated_at?: string;
                                /** @description Grows by one on every replacement; 0 before the first */
                                version: number;
                            };
                            built_in: {
                                /** @description Built-in rules in all families */
                                count: number;
                                families: {
                                    count: number;
                                    description?: string;
                                    family: string;
                                    /** @description Rule ids */
                                    rules: string[];
                                }[];
                            };
                            /** @description Version of the rule format */
                            format_version: number;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/catalogue/coverage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** MITRE ATT&CK coverage: for each technique and platform, the built-in rules that refuse it and the Sigma and LOLBAS entries it was seen in */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description MITRE ATT&CK techniques by tactic and platform, and the rules that refuse them */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            description: string;
                            platforms: ("linux" | "macos" | "windows" | "aws" | "azure" | "gcp")[];
                            sources: {
                                commit?: string;
                                entries_read?: number;
                                licence: string;
                                name: string;
                                note?: string;
                                rules_read?: number;
                                url: string;
                            }[];
                            tactics: {
                                id: string;
                                name: string;
                                share: {
                                    [key: string]: {
                                        covered: number;
                                        techniques: number;
                                    };
                                };
                                techniques: {
                                    /** @description A Sigma rule title that detects it */
                                    example?: string;
                                    id: string;
                                    platforms: {
                                        [key: string]: {
                                            /** @description LOLBAS binaries mapped to it */
                                            lolbas?: string[];
                                            /** @description Catalogue rules and guards that refuse it; empty: not covered */
                                            rules: string[];
                                            /** @description SigmaHQ rules (file names) that detect it, at most eight */
                                            sigma: string[];
                                            sigma_total: number;
                                        };
                                    };
                                }[];
                            }[];
                            /** @enum {number} */
                            version: 1;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/catalogue/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's own catalogue rules, judged after the built-in ones */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            /** @description Part of the policy version of every verdict; empty when none */
                            digest: string;
                            /** @description Rules in the catalogue format (docs: src/domains/verdict/catalogue/README.md) */
                            rules: {
                                [key: string]: unknown;
                            }[];
                            /** Format: date-time */
                            updated_at?: string;
                            /** @description Grows by one on every replacement; 0 before the first */
                            version: number;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /**
         * Replace the account's catalogue rules as a whole; in force on the next evaluation on every instance
         * @description Rules that do not match the rule format are refused with 400 VALIDATION_ERROR; error.details.errors lists every problem.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description At most 100 rules; each is checked against the rule schema, and every problem is listed in error.details.errors */
                        rules: unknown[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            /** @description Part of the policy version of every verdict; empty when none */
                            digest: string;
                            /** @description Rules in the catalogue format (docs: src/domains/verdict/catalogue/README.md) */
                            rules: {
                                [key: string]: unknown;
                            }[];
                            /** Format: date-time */
                            updated_at?: string;
                            /** @description Grows by one on every replacement; 0 before the first */
                            version: number;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        /** Remove all of the account's catalogue rules (the built-in ones stay) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            /** @description Part of the policy version of every verdict; empty when none */
                            digest: string;
                            /** @description Rules in the catalogue format (docs: src/domains/verdict/catalogue/README.md) */
                            rules: {
                                [key: string]: unknown;
                            }[];
                            /** Format: date-time */
                            updated_at?: string;
                            /** @description Grows by one on every replacement; 0 before the first */
                            version: number;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/evaluate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Judge a proposed action: 200 safe or unsafe, 409 CONFLICT_DETECTED, 412 STATE_DRIFT
         * @description Every readable JSON body gets a verdict; one that is not {action, payload} is a SCHEMA_MISMATCH verdict. An If-Match header may carry the expected state hash instead of expected_state_hash. An optional context (workspace, user, home, os) says where the agent works; the account's defaults fill what it leaves out.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A built-in action (db.query, shell.exec, fs.read, fs.write, fs.delete, http.request, email.send, agent.respond) or one of the account's */
                        action: string;
                        /** @description Where the agent works: paths are judged relative to it. Part of the verdict hash when present; a request without it hashes as before. The account's defaults (GET /v1/settings/context) fill what it leaves out */
                        context?: {
                            /** @description An absolute path as the agent's OS writes it (/…, ~/…, C:\…) */
                            home?: string;
                            /** @description The operating system the agent runs on: where homes are (/home, /Users, C:\Users) */
                            os?: "linux" | "macos" | "windows";
                            /** @description The account the agent runs as (root: its home is /root) */
                            user?: string;
                            /** @description The agent's workspace roots; the first is where relative paths resolve. Inside them files are the agent's own, except credential stores, start-up files and system trees */
                            workspace?: string | string[];
                        };
                        /** @description The ledger state hash (64 hex characters) the request relies on; another current state is STATE_DRIFT. If-Match may carry it instead. */
                        expected_state_hash?: string;
                        /** @description The action's parameters */
                        payload: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description A verdict: the body of every answer of POST /v1/evaluate but transport errors */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description MITRE ATT&CK techniques of the rule that refused the action, when it maps to any (GET /v1/catalogue/coverage) */
                            attack?: string[];
                            /** @description What Arbiter understood the action would do */
                            effects: {
                                /** @enum {string} */
                                kind: "read" | "write" | "delete" | "execute" | "install" | "egress" | "privilege" | "persistence" | "security_control" | "credential_access" | "remote_mutation";
                                target?: string;
                            }[];
                            error?: {
                                code: "SCHEMA_MISMATCH" | "POLICY_VIOLATION" | "DEST_MUTATION" | "RATE_LIMIT_EXCEEDED" | "EXFILTRATION_BLOCKED" | "FILESYSTEM_DENIED" | "CONFLICT_DETECTED" | "STATE_DRIFT";
                                message: string;
                            };
                            /** @description SHA-256 of canonical {action, payload, code, policy_version}, and context when the request carries one */
                            hash: string;
                            is_safe: boolean;
                            /** @description Time spent judging, in milliseconds */
                            latency_ms: number;
                            /** @description False when any step could not be reduced to known effects (an unknown program, an unmodelled subcommand, a custom action): a person should decide */
                            recognised: boolean;
                            /** @description The ledger state hash the verdict was made against */
                            state_hash: string;
                            /** @description What was not understood, when recognised is false */
                            unrecognised?: string[];
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description A verdict: the body of every answer of POST /v1/evaluate but transport errors */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description MITRE ATT&CK techniques of the rule that refused the action, when it maps to any (GET /v1/catalogue/coverage) */
                            attack?: string[];
                            /** @description What Arbiter understood the action would do */
                            effects: {
                                /** @enum {string} */
                                kind: "read" | "write" | "delete" | "execute" | "install" | "egress" | "privilege" | "persistence" | "security_control" | "credential_access" | "remote_mutation";
                                target?: string;
                            }[];
                            error?: {
                                code: "SCHEMA_MISMATCH" | "POLICY_VIOLATION" | "DEST_MUTATION" | "RATE_LIMIT_EXCEEDED" | "EXFILTRATION_BLOCKED" | "FILESYSTEM_DENIED" | "CONFLICT_DETECTED" | "STATE_DRIFT";
                                message: string;
                            };
                            /** @description SHA-256 of canonical {action, payload, code, policy_version}, and context when the request carries one */
                            hash: string;
                            is_safe: boolean;
                            /** @description Time spent judging, in milliseconds */
                            latency_ms: number;
                            /** @description False when any step could not be reduced to known effects (an unknown program, an unmodelled subcommand, a custom action): a person should decide */
                            recognised: boolean;
                            /** @description The ledger state hash the verdict was made against */
                            state_hash: string;
                            /** @description What was not understood, when recognised is false */
                            unrecognised?: string[];
                        };
                    };
                };
                /** @description A verdict: the body of every answer of POST /v1/evaluate but transport errors */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description MITRE ATT&CK techniques of the rule that refused the action, when it maps to any (GET /v1/catalogue/coverage) */
                            attack?: string[];
                            /** @description What Arbiter understood the action would do */
                            effects: {
                                /** @enum {string} */
                                kind: "read" | "write" | "delete" | "execute" | "install" | "egress" | "privilege" | "persistence" | "security_control" | "credential_access" | "remote_mutation";
                                target?: string;
                            }[];
                            error?: {
                                code: "SCHEMA_MISMATCH" | "POLICY_VIOLATION" | "DEST_MUTATION" | "RATE_LIMIT_EXCEEDED" | "EXFILTRATION_BLOCKED" | "FILESYSTEM_DENIED" | "CONFLICT_DETECTED" | "STATE_DRIFT";
                                message: string;
                            };
                            /** @description SHA-256 of canonical {action, payload, code, policy_version}, and context when the request carries one */
                            hash: string;
                            is_safe: boolean;
                            /** @description Time spent judging, in milliseconds */
                            latency_ms: number;
                            /** @description False when any step could not be reduced to known effects (an unknown program, an unmodelled subcommand, a custom action): a person should decide */
                            recognised: boolean;
                            /** @description The ledger state hash the verdict was made against */
                            state_hash: string;
                            /** @description What was not understood, when recognised is false */
                            unrecognised?: string[];
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settings/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where the account's agents work by default, and the local origins an http.request may reach */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Normalised home */
                            home?: string;
                            local_origins: string[];
                            /** @description The operating system the agent runs on: where homes are (/home, /Users, C:\Users) */
                            os?: "linux" | "macos" | "windows";
                            user?: string;
                            /** @description Normalised workspace roots */
                            workspace?: string[];
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /**
         * Replace the default agent context and the named local origins (omitted fields are unset)
         * @description A request's own context overrides these field by field. Paths must be absolute; local origins must be loopback and never the Docker or kubelet APIs.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description An absolute path as the agent's OS writes it (/…, ~/…, C:\…) */
                        home?: string;
                        /** @description Loopback origins (http://localhost:3000) an http.request may reach: a fetch from the server refuses loopback otherwise. Never the Docker or kubelet APIs */
                        local_origins?: string[];
                        /** @description The operating system the agent runs on: where homes are (/home, /Users, C:\Users) */
                        os?: "linux" | "macos" | "windows";
                        /** @description The account the agent runs as (root: its home is /root) */
                        user?: string;
                        /** @description The agent's workspace roots; the first is where relative paths resolve. Inside them files are the agent's own, except credential stores, start-up files and system trees */
                        workspace?: string | string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Normalised home */
                            home?: string;
                            local_origins: string[];
                            /** @description The operating system the agent runs on: where homes are (/home, /Users, C:\Users) */
                            os?: "linux" | "macos" | "windows";
                            user?: string;
                            /** @description Normalised workspace roots */
                            workspace?: string[];
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settings/egress": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Egress policy of the account */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            blocked_domains: string[];
                            mode: "denylist" | "allowlist";
                            trusted_domains: string[];
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Replace the egress policy (omitted lists are empty) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        blocked_domains?: string[];
                        mode: "denylist" | "allowlist";
                        trusted_domains?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            blocked_domains: string[];
                            mode: "denylist" | "allowlist";
                            trusted_domains: string[];
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settings/execution": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Execution settings of the account */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allow_opaque: boolean;
                            /** @description An action Arbiter does not understand: allow (the default) answers is_safe true with recognised false, for the integration to ask a person; refuse answers POLICY_VIOLATION naming what was not understood */
                            unrecognised: "allow" | "refuse";
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Replace the execution settings */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Allow code a shell, eval or an interpreter would run but that cannot be resolved statically (refused with POLICY_VIOLATION by default) */
                        allow_opaque: boolean;
                        /** @description An action Arbiter does not understand: allow (the default) answers is_safe true with recognised false, for the integration to ask a person; refuse answers POLICY_VIOLATION naming what was not understood */
                        unrecognised?: "allow" | "refuse";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            allow_opaque: boolean;
                            /** @description An action Arbiter does not understand: allow (the default) answers is_safe true with recognised false, for the integration to ask a person; refuse answers POLICY_VIOLATION naming what was not understood */
                            unrecognised: "allow" | "refuse";
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settings/loop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Loop detection settings of the account */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            threshold: number;
                            window_seconds: number;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Replace the loop detection settings */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Identical failing calls allowed within the window */
                        threshold: number;
                        window_seconds: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            threshold: number;
                            window_seconds: number;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settings/protected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Resources the account never lets an agent delete or force-push */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            branches: string[];
                            buckets: string[];
                            databases: string[];
                            namespaces: string[];
                            projects: string[];
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Replace the protected resources (omitted lists are empty) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        branches?: string[];
                        buckets?: string[];
                        databases?: string[];
                        namespaces?: string[];
                        projects?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            branches: string[];
                            buckets: string[];
                            databases: string[];
                            namespaces: string[];
                            projects: string[];
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account, key and plan behind the bearer key */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            account_id: string;
                            /** Format: uuid */
                            key_id: string;
                            plan: string;
                            /** @description agent: evaluate, judge and memory; operator: + escalation decisions, settings, policies, webhooks, audit, usage; admin: + keys, billing, GDPR */
                            role: "agent" | "operator" | "admin";
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/actions/evaluate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Judge a proposed action through seven gates: ALLOWED, BLOCKED or ESCALATE
         * @description An If-Match header may carry the expected state hash instead of expected_state_hash; a different current state is BLOCKED by the consistency gate (STATE_DRIFT).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description a built-in action (db.query, shell.exec, fs.read, …) or one the account registered */
                        action_type: string;
                        /** @description who proposes the action (an agent or user id) */
                        actor: string;
                        actor_role: "user" | "admin" | "assistant";
                        /** @description Where the agent works: paths are judged relative to it. Part of the verdict hash when present; a request without it hashes as before. The account's defaults (GET /v1/settings/context) fill what it leaves out */
                        context?: {
                            /** @description An absolute path as the agent's OS writes it (/…, ~/…, C:\…) */
                            home?: string;
                            /** @description The operating system the agent runs on: where homes are (/home, /Users, C:\Users) */
                            os?: "linux" | "macos" | "windows";
                            /** @description The account the agent runs as (root: its home is /root) */
                            user?: string;
                            /** @description The agent's workspace roots; the first is where relative paths resolve. Inside them files are the agent's own, except credential stores, start-up files and system trees */
                            workspace?: string | string[];
                        };
                        /** @description The ledger state hash (64 hex characters) the request relies on; another current state is STATE_DRIFT. If-Match may carry it instead. */
                        expected_state_hash?: string;
                        impact_scope: "internal" | "external" | "critical";
                        /** @description the action's parameters */
                        payload: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            action_kind: string;
                            /** Format: date-time */
                            created_at: string;
                            decision: "ALLOWED" | "BLOCKED" | "ESCALATE";
                            /** Format: uuid */
                            evaluation_id: string;
                            expires_at: string | null;
                            gates: {
                                authority: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                consistency: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                destruction: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                egress: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                loop: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                policy: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                schema: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                            };
                            policy_version: number;
                            reason: string;
                            status: "allowed" | "blocked" | "pending" | "approved" | "denied" | "expired";
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/actions/evaluations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's evaluations, newest first, filtered, one page at a time */
        get: {
            parameters: {
                query?: {
                    actor?: string;
                    cursor?: string;
                    decision?: "ALLOWED" | "BLOCKED" | "ESCALATE";
                    /** @description created at or after */
                    from?: string;
                    limit?: number;
                    status?: "allowed" | "blocked" | "pending" | "approved" | "denied" | "expired";
                    /** @description created before */
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            evaluations: {
                                action_kind: string;
                                action_type: string;
                                actor: string;
                                actor_role: string;
                                comment: string | null;
                                /** Format: date-time */
                                created_at: string;
                                decided_at: string | null;
                                decided_by: string | null;
                                decision: "ALLOWED" | "BLOCKED" | "ESCALATE";
                                /** Format: uuid */
                                evaluation_id: string;
                                expires_at: string | null;
                                gates: {
                                    authority: {
                                        code?: string;
                                        outcome: "pass" | "block" | "escalate";
                                        passed: boolean;
                                        /** @description Cedar policies that decided this gate */
                                        policies?: string[];
                                        reason: string;
                                    };
                                    consistency: {
                                        code?: string;
                                        outcome: "pass" | "block" | "escalate";
                                        passed: boolean;
                                        /** @description Cedar policies that decided this gate */
                                        policies?: string[];
                                        reason: string;
                                    };
                                    destruction: {
                                        code?: string;
                                        outcome: "pass" | "block" | "escalate";
                                        passed: boolean;
                                        /** @description Cedar policies that decided this gate */
                                        policies?: string[];
                                        reason: string;
                                    };
                                    egress: {
                                        code?: string;
                                        outcome: "pass" | "block" | "escalate";
                                        passed: boolean;
                                        /** @description Cedar policies that decided this gate */
                                        policies?: string[];
                                        reason: string;
                                    };
                                    loop: {
                                        code?: string;
                                        outcome: "pass" | "block" | "escalate";
                                        passed: boolean;
                                        /** @description Cedar policies that decided this gate */
                                        policies?: string[];
                                        reason: string;
                                    };
                                    policy: {
                                        code?: string;
                                        outcome: "pass" | "block" | "escalate";
                                        passed: boolean;
                                        /** @description Cedar policies that decided this gate */
                                        policies?: string[];
                                        reason: string;
                                    };
                                    schema: {
                                        code?: string;
                                        outcome: "pass" | "block" | "escalate";
                                        passed: boolean;
                                        /** @description Cedar policies that decided this gate */
                                        policies?: string[];
                                        reason: string;
                                    };
                                };
                                impact_scope: string;
                                /** @description what the agent should do now; null while a human has not decided */
                                outcome: "ALLOWED" | "BLOCKED" | null;
                                /** @description kept for escalations only, for the human who decides */
                                payload: unknown;
                                payload_sha256: string;
                                policy_version: number;
                                reason: string;
                                status: "allowed" | "blocked" | "pending" | "approved" | "denied" | "expired";
                            }[];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/actions/evaluations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One evaluation and, for an escalation, where its decision stands */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            action_kind: string;
                            action_type: string;
                            actor: string;
                            actor_role: string;
                            comment: string | null;
                            /** Format: date-time */
                            created_at: string;
                            decided_at: string | null;
                            decided_by: string | null;
                            decision: "ALLOWED" | "BLOCKED" | "ESCALATE";
                            /** Format: uuid */
                            evaluation_id: string;
                            expires_at: string | null;
                            gates: {
                                authority: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                consistency: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                destruction: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                egress: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                loop: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                policy: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                schema: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                            };
                            impact_scope: string;
                            /** @description what the agent should do now; null while a human has not decided */
                            outcome: "ALLOWED" | "BLOCKED" | null;
                            /** @description kept for escalations only, for the human who decides */
                            payload: unknown;
                            payload_sha256: string;
                            policy_version: number;
                            reason: string;
                            status: "allowed" | "blocked" | "pending" | "approved" | "denied" | "expired";
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/actions/evaluations/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a pending escalation (final; not with the key that asked) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        comment?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            action_kind: string;
                            action_type: string;
                            actor: string;
                            actor_role: string;
                            comment: string | null;
                            /** Format: date-time */
                            created_at: string;
                            decided_at: string | null;
                            decided_by: string | null;
                            decision: "ALLOWED" | "BLOCKED" | "ESCALATE";
                            /** Format: uuid */
                            evaluation_id: string;
                            expires_at: string | null;
                            gates: {
                                authority: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                consistency: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                destruction: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                egress: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                loop: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                policy: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                schema: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                            };
                            impact_scope: string;
                            /** @description what the agent should do now; null while a human has not decided */
                            outcome: "ALLOWED" | "BLOCKED" | null;
                            /** @description kept for escalations only, for the human who decides */
                            payload: unknown;
                            payload_sha256: string;
                            policy_version: number;
                            reason: string;
                            status: "allowed" | "blocked" | "pending" | "approved" | "denied" | "expired";
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/actions/evaluations/{id}/deny": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deny a pending escalation (final; not with the key that asked) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        comment?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            action_kind: string;
                            action_type: string;
                            actor: string;
                            actor_role: string;
                            comment: string | null;
                            /** Format: date-time */
                            created_at: string;
                            decided_at: string | null;
                            decided_by: string | null;
                            decision: "ALLOWED" | "BLOCKED" | "ESCALATE";
                            /** Format: uuid */
                            evaluation_id: string;
                            expires_at: string | null;
                            gates: {
                                authority: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                consistency: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                destruction: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                egress: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                loop: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                policy: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                                schema: {
                                    code?: string;
                                    outcome: "pass" | "block" | "escalate";
                                    passed: boolean;
                                    /** @description Cedar policies that decided this gate */
                                    policies?: string[];
                                    reason: string;
                                };
                            };
                            impact_scope: string;
                            /** @description what the agent should do now; null while a human has not decided */
                            outcome: "ALLOWED" | "BLOCKED" | null;
                            /** @description kept for escalations only, for the human who decides */
                            payload: unknown;
                            payload_sha256: string;
                            policy_version: number;
                            reason: string;
                            status: "allowed" | "blocked" | "pending" | "approved" | "denied" | "expired";
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's current Cedar policy document (or an older version) and the schema it is checked against */
        get: {
            parameters: {
                query?: {
                    /** @description an older version */
                    version?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            created_at: string | null;
                            /** @description the API key id that uploaded it */
                            created_by: string | null;
                            is_default: boolean;
                            /** @description Cedar text */
                            policies: string;
                            /** @description the Cedar schema policies are validated against */
                            schema: string;
                            /** @description 0 is the built-in default */
                            version: number;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Replace the policy document: validated, then in force from the next evaluation on */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The whole policy document, in the Cedar language (see `schema` in GET /v2/policies) */
                        policies: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            policies: {
                                effect: "permit" | "forbid";
                                /** @description the @escalate reason, if any */
                                escalate: string | null;
                                id: string;
                                line: number;
                            }[];
                            /** @enum {boolean} */
                            success: true;
                            version: number;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/vault/claims": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's claims in the order they were first stored, one page at a time; follow next_cursor for more */
        get: {
            parameters: {
                query?: {
                    /** @description next_cursor of the previous page */
                    cursor?: string;
                    /** @description Also list claims that a later claim superseded */
                    include_superseded?: boolean;
                    limit?: number;
                    /** @description Only claims stored or changed at or after this instant (updated_at ≥ since) */
                    since?: string;
                    /** @description Only claims from this source (exact match) */
                    source?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            claims: {
                                claim: string;
                                confidence: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description The claim read as subject, relation and object; null when it is not a short statement of a known shape. Conflicts and supersede compare claims about the same subject and relation only */
                                fact: {
                                    negated: boolean;
                                    object: string;
                                    relation: string;
                                    /** @description a restriction ("for students") */
                                    scope?: string;
                                    subject: string;
                                    /** @description past, future and/or a time phrase ("in 2019") */
                                    time?: string;
                                } | null;
                                /** Format: uuid */
                                id: string;
                                short_id: string;
                                source: string;
                                status: "active" | "superseded";
                                /** Format: date-time */
                                updated_at: string;
                                version: number;
                            }[];
                            /** @description Where the next page starts; null on the last page */
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/vault/claims/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A claim (by uuid or short id) with its version history */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            claim: string;
                            confidence: number;
                            /** Format: date-time */
                            created_at: string;
                            /** @description The claim read as subject, relation and object; null when it is not a short statement of a known shape. Conflicts and supersede compare claims about the same subject and relation only */
                            fact: {
                                negated: boolean;
                                object: string;
                                relation: string;
                                /** @description a restriction ("for students") */
                                scope?: string;
                                subject: string;
                                /** @description past, future and/or a time phrase ("in 2019") */
                                time?: string;
                            } | null;
                            /** Format: uuid */
                            id: string;
                            short_id: string;
                            source: string;
                            status: "active" | "superseded";
                            /** Format: date-time */
                            updated_at: string;
                            version: number;
                            versions: {
                                claim: string;
                                confidence: number;
                                /** Format: date-time */
                                created_at: string;
                                source: string;
                                version: number;
                            }[];
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a claim: it leaves search; the ledger records the deletion */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            state_hash: string;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/vault/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Claims relevant to a query, ranked by relevance × confidence; empty when nothing relevant is known */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        query: string;
                        /** @default 5 */
                        top_k?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            results: {
                                claim: string;
                                confidence: number;
                                /** @description The claim read as subject, relation and object; null when it is not a short statement of a known shape. Conflicts and supersede compare claims about the same subject and relation only */
                                fact: {
                                    negated: boolean;
                                    object: string;
                                    relation: string;
                                    /** @description a restriction ("for students") */
                                    scope?: string;
                                    subject: string;
                                    /** @description past, future and/or a time phrase ("in 2019") */
                                    time?: string;
                                } | null;
                                /** Format: uuid */
                                id: string;
                                /** @description Fused rank relevance in (0, 1] */
                                relevance: number;
                                /** @description relevance × confidence, the order of the results */
                                score: number;
                                source: string;
                                /** Format: date-time */
                                timestamp: string;
                                version: number;
                            }[];
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/vault/settings/pii": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Scrubbing settings of the account: the default phone region and how names are kept */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description pseudonymize (default): each word of a name becomes a pseudonym keyed by the account, the same in claims and queries; redact: an irreversible <PERSON>; keep: names are stored as written. Applies to claims stored and queries asked from now on */
                            names: "pseudonymize" | "redact" | "keep";
                            phone_region: string;
                            updated_at: string | null;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        /** Change the scrubbing settings: the region whose national phone numbers are read without a country code, and names: pseudonymize | redact | keep */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description pseudonymize (default): each word of a name becomes a pseudonym keyed by the account, the same in claims and queries; redact: an irreversible <PERSON>; keep: names are stored as written. Applies to claims stored and queries asked from now on */
                        names?: "pseudonymize" | "redact" | "keep";
                        /**
                         * @description ISO 3166-1 alpha-2 region (e.g. "GB", "DE", "JP") whose national phone formats are read without a country code; numbers written with +<country code> are read in every region
                         * @example GB
                         */
                        phone_region?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description pseudonymize (default): each word of a name becomes a pseudonym keyed by the account, the same in claims and queries; redact: an irreversible <PERSON>; keep: names are stored as written. Applies to claims stored and queries asked from now on */
                            names: "pseudonymize" | "redact" | "keep";
                            phone_region: string;
                            updated_at: string | null;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/vault/state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's current ledger state hash */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entries: number;
                            state_hash: string;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/vault/store": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Store a claim: scrubbed, checked for conflicts, embedded, appended to the hash chain */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The statement */
                        claim: string;
                        /** @description How sure the source is, in [0, 1] */
                        confidence: number;
                        /** @description The ledger state hash (64 hex characters) the request relies on; another current state is STATE_DRIFT. If-Match may carry it instead. */
                        expected_state_hash?: string;
                        /** @description keep (default): store and report conflicts; reject: 409, nothing stored; supersede: older conflicting claims leave search */
                        on_conflict?: "keep" | "reject" | "supersede";
                        /** @description Where the claim comes from */
                        source: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The claim as stored, after scrubbing */
                            claim: string;
                            conflicts: {
                                claim: string;
                                confidence: number;
                                id: string;
                                /** @description negation | antonym | value_mismatch | entity_mismatch */
                                kind: string;
                                reason: string;
                                short_id: string;
                                similarity: number;
                            }[];
                            /** @description The claim read as subject, relation and object; null when it is not a short statement of a known shape. Conflicts and supersede compare claims about the same subject and relation only */
                            fact?: {
                                negated: boolean;
                                object: string;
                                relation: string;
                                /** @description a restriction ("for students") */
                                scope?: string;
                                subject: string;
                                /** @description past, future and/or a time phrase ("in 2019") */
                                time?: string;
                            } | null;
                            /** Format: uuid */
                            id: string;
                            /** @description Personal data replaced before storage, by type and count (never the values) */
                            scrubbed: {
                                [key: string]: number;
                            };
                            short_id: string;
                            state_hash: string;
                            superseded: string[];
                            version: number;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/vault/store_batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Store up to 1,000 claims in one transaction, each as /v2/vault/store would; all or nothing */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 1 to 1000 claims, stored in this order; each is checked against the stored claims and the batch's earlier ones */
                        claims: {
                            /** @description The statement */
                            claim: string;
                            /** @description How sure the source is, in [0, 1] */
                            confidence: number;
                            /** @description keep (default): store and report conflicts; reject: 409, nothing stored; supersede: older conflicting claims leave search */
                            on_conflict?: "keep" | "reject" | "supersede";
                            /** @description Where the claim comes from */
                            source: string;
                        }[];
                        /** @description The ledger state hash (64 hex characters) the request relies on; another current state is STATE_DRIFT. If-Match may carry it instead. */
                        expected_state_hash?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description One per claim, in the request's order; each state_hash is the ledger's state after that claim */
                            results: {
                                /** @description The claim as stored, after scrubbing */
                                claim: string;
                                conflicts: {
                                    claim: string;
                                    confidence: number;
                                    id: string;
                                    /** @description negation | antonym | value_mismatch | entity_mismatch */
                                    kind: string;
                                    reason: string;
                                    short_id: string;
                                    similarity: number;
                                }[];
                                /** @description The claim read as subject, relation and object; null when it is not a short statement of a known shape. Conflicts and supersede compare claims about the same subject and relation only */
                                fact?: {
                                    negated: boolean;
                                    object: string;
                                    relation: string;
                                    /** @description a restriction ("for students") */
                                    scope?: string;
                                    subject: string;
                                    /** @description past, future and/or a time phrase ("in 2019") */
                                    time?: string;
                                } | null;
                                /** Format: uuid */
                                id: string;
                                /** @description Personal data replaced before storage, by type and count (never the values) */
                                scrubbed: {
                                    [key: string]: number;
                                };
                                short_id: string;
                                state_hash: string;
                                superseded: string[];
                                version: number;
                            }[];
                            /** @description The ledger's state after the whole batch */
                            state_hash: string;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/vault/subjects/forget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Forget a person: destroy the mapping from their name's pseudonyms to the name (claims and the chain stay) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The person's name as it was written in claims */
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Claims (any status) that mention the name; they stay, with its pseudonyms */
                            claims: number;
                            /** @description Words of the name whose mapping was destroyed (0 when it was already forgotten or never stored) */
                            words: number;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/vault/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Re-walk the hash chain; names the first entry that does not hold */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entries: number;
                            first_bad_seq?: number;
                            reason?: string;
                            state_hash?: string;
                            valid: boolean;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's endpoints */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            webhooks: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                disabled_reason: string | null;
                                event_types: string[];
                                id: string;
                                status: "enabled" | "disabled";
                                /** Format: date-time */
                                updated_at: string;
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Register an endpoint (the signing secret is returned once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        /** @description Types to receive (GET /webhooks/event-types); omitted or empty = all */
                        event_types?: string[];
                        /** @description HTTPS URL that receives the events */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            disabled_reason: string | null;
                            event_types: string[];
                            id: string;
                            /** @description Signing secret (Standard Webhooks, whsec_…). Shown once; store it now. */
                            secret: string;
                            status: "enabled" | "disabled";
                            /** @enum {boolean} */
                            success: true;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One endpoint */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    webhook_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            webhook: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                disabled_reason: string | null;
                                event_types: string[];
                                id: string;
                                status: "enabled" | "disabled";
                                /** Format: date-time */
                                updated_at: string;
                                url: string;
                            };
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete an endpoint with its delivery log */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    webhook_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success: boolean;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The endpoint's delivery log, newest first, with every attempt */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path: {
                    webhook_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deliveries: {
                                attempt_log: {
                                    at: string;
                                    attempt: number;
                                    duration_ms: number;
                                    error: string | null;
                                    status_code: number | null;
                                }[];
                                attempts: number;
                                completed_at: string | null;
                                created_at: string;
                                event_id: string;
                                event_type: string;
                                id: string;
                                last_error: string | null;
                                last_status_code: number | null;
                                next_attempt_at: string | null;
                                /** @description pending, delivering, succeeded or failed */
                                status: string;
                            }[];
                            next_cursor: string | null;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send the event of a delivery again */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    delivery_id: string;
                    webhook_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            delivery_id: string;
                            event_id: string;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{webhook_id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enable a disabled endpoint again (its failure count starts over) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    webhook_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            webhook: {
                                /** Format: date-time */
                                created_at: string;
                                description: string;
                                disabled_reason: string | null;
                                event_types: string[];
                                id: string;
                                status: "enabled" | "disabled";
                                /** Format: date-time */
                                updated_at: string;
                                url: string;
                            };
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{webhook_id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the signing secret (the new one is returned once; the old one stops at once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    webhook_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            disabled_reason: string | null;
                            event_types: string[];
                            id: string;
                            /** @description Signing secret (Standard Webhooks, whsec_…). Shown once; store it now. */
                            secret: string;
                            status: "enabled" | "disabled";
                            /** @enum {boolean} */
                            success: true;
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{webhook_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a webhook.test event to this endpoint alone */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    webhook_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            delivery_id: string;
                            event_id: string;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Event types an endpoint can subscribe to, and how deliveries are signed */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            event_types: {
                                description: string;
                                type: string;
                            }[];
                            signing: string;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Every error but a verdict has this body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Every error but a verdict has this body */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Every error but a verdict has this body */
        ErrorBody: {
            error: {
                code: string;
                details?: {
                    [key: string]: unknown;
                };
                message: string;
            };
            request_id: string;
            /** @enum {boolean} */
            success: false;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
