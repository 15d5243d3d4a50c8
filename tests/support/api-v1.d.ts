export interface paths {
    "/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List sources */
        get: operations["listSources"];
        put?: never;
        /**
         * Create a source
         * @description The body is the integration's variant: its settings are that integration's. A data generator source needs no credential_id; any other integration needs a credential authenticated in the app.
         */
        post: operations["createSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a source */
        get: operations["getSource"];
        put?: never;
        post?: never;
        /** Delete a source (409 while connectors use it) */
        delete: operations["deleteSource"];
        options?: never;
        head?: never;
        /** Rename a source */
        patch: operations["updateSource"];
        trace?: never;
    };
    "/destinations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List destinations */
        get: operations["listDestinations"];
        put?: never;
        /**
         * Create a destination
         * @description The body is the integration's variant: its settings are that integration's. A local destination needs no connection test; a cloud one needs the credential_id and validation_token of a successful test made in the app over the same settings.
         */
        post: operations["createDestination"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/destinations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a destination */
        get: operations["getDestination"];
        put?: never;
        post?: never;
        /** Delete a destination (409 while connectors use it) */
        delete: operations["deleteDestination"];
        options?: never;
        head?: never;
        /** Update a destination */
        patch: operations["updateDestination"];
        trace?: never;
    };
    "/connectors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List connectors */
        get: operations["listConnectors"];
        put?: never;
        /**
         * Create a connector
         * @description Its first sync is queued at once unless first_sync is false or its schedule is manual.
         */
        post: operations["createConnector"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connectors/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a connector */
        get: operations["getConnector"];
        put?: never;
        post?: never;
        /** Delete a connector (its sync is stopped first; 409 while transforms use it) */
        delete: operations["deleteConnector"];
        options?: never;
        head?: never;
        /** Update a connector */
        patch: operations["updateConnector"];
        trace?: never;
    };
    "/connectors/{id}/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sync now */
        post: operations["triggerSync"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connectors/{id}/backfill": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Backfill a date range */
        post: operations["triggerBackfill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connectors/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel the queued or running run (200: over, 202: stopping) */
        post: operations["cancelConnectorRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connectors/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List runs, newest first */
        get: operations["listConnectorRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connectors/{id}/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a run with its attempts and log */
        get: operations["getConnectorRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connectors/{id}/runs/{runId}/log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a run's log as text */
        get: operations["getConnectorRunLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connectors/{id}/schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read the schedule */
        get: operations["getConnectorSchedule"];
        /** Set the schedule */
        put: operations["setConnectorSchedule"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transforms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List transforms */
        get: operations["listTransforms"];
        put?: never;
        /**
         * Create a transform from a template
         * @description Its first run is queued at once. Its template, connector and inputs are changed by creating a new one (spec: legacy editing is deprecated); PATCH renames it.
         */
        post: operations["createTransform"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transforms/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a transform */
        get: operations["getTransform"];
        put?: never;
        post?: never;
        /** Delete a transform (its run is stopped first) */
        delete: operations["deleteTransform"];
        options?: never;
        head?: never;
        /**
         * Rename a transform
         * @description Its name and description. Its template, connector and inputs are changed by creating a new transform; its schedule at /transforms/{id}/schedule.
         */
        patch: operations["updateTransform"];
        trace?: never;
    };
    "/transforms/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run now */
        post: operations["triggerTransformRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transforms/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel the queued or running run (200: over, 202: stopping) */
        post: operations["cancelTransformRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transforms/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List runs, newest first */
        get: operations["listTransformRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transforms/{id}/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a run with its attempts and log */
        get: operations["getTransformRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transforms/{id}/runs/{runId}/log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a run's log as text */
        get: operations["getTransformRunLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transforms/{id}/schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read the schedule */
        get: operations["getTransformSchedule"];
        /** Set the schedule */
        put: operations["setTransformSchedule"];
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
        Source: {
            id: string;
            name: string;
            description: string;
            /**
             * @description Where its data comes from.
             * @enum {string}
             */
            integration: "zoom" | "teams" | "gmail" | "meet" | "outlook" | "datagen";
            /** @description The integration's name as people read it (“Microsoft Teams”). */
            integration_label: string;
            /** @description The account it reads with, authenticated in the app. */
            credential_id: string | null;
            status: string | null;
            /** @description Its integration's settings, as created. */
            settings: {
                [key: string]: unknown;
            };
            /** @description Connectors reading from it. */
            connector_count: number;
            /** @description When it was made (ISO 8601). */
            created_at: string;
            /** @description When it last changed (ISO 8601), or null. */
            updated_at: string | null;
        };
        ZoomSourceCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            integration: "zoom";
            name: string;
            description?: string | null;
            /** @description Required: the credential authenticated in the app for this integration. */
            credential_id?: string;
            /** @description Zoom's settings. */
            settings?: {
                /** @enum {string} */
                zoom_extraction_scope: "ORG" | "GROUP";
                zoom_group_id?: string | null;
                zoom_group_name?: string | null;
            };
        };
        TeamsSourceCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            integration: "teams";
            name: string;
            description?: string | null;
            /** @description Required: the credential authenticated in the app for this integration. */
            credential_id?: string;
            /** @description Microsoft Teams's settings. */
            settings?: {
                /** @enum {string} */
                teams_extraction_scope: "ORG" | "TEAM";
                team_id?: string | null;
                team_name?: string | null;
            };
        };
        GmailSourceCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            integration: "gmail";
            name: string;
            description?: string | null;
            /** @description Required: the credential authenticated in the app for this integration. */
            credential_id?: string;
            /** @description Gmail's settings. */
            settings?: {
                /** @enum {string} */
                gmail_extraction_scope: "ORG" | "GROUP" | "INDIVIDUAL";
                admin_email?: string | null;
                gmail_group_id?: string | null;
                gmail_group_email?: string | null;
                gmail_group_name?: string | null;
                /**
                 * @default service_account
                 * @enum {string}
                 */
                gmail_auth_mode: "service_account" | "service_account_verified" | "individual";
            };
        };
        MeetSourceCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            integration: "meet";
            name: string;
            description?: string | null;
            /** @description Required: the credential authenticated in the app for this integration. */
            credential_id?: string;
            /** @description Google Meet's settings. */
            settings?: {
                /** @enum {string} */
                meet_extraction_scope: "ORG" | "GROUP";
                admin_email?: string | null;
                meet_group_id?: string | null;
                meet_group_email?: string | null;
                meet_group_name?: string | null;
            };
        };
        OutlookSourceCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            integration: "outlook";
            name: string;
            description?: string | null;
            /** @description Required: the credential authenticated in the app for this integration. */
            credential_id?: string;
            /** @description Outlook's settings. */
            settings?: {
                /** @enum {string} */
                outlook_extraction_scope: "ORG" | "GROUP";
                outlook_group_id?: string | null;
                outlook_group_name?: string | null;
            };
        };
        DatagenSourceCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            integration: "datagen";
            name: string;
            description?: string | null;
            /** @description Not needed: this integration reads no account. */
            credential_id?: string;
            /** @description Data Generator's settings. */
            settings?: {
                company?: string | null;
                /** @enum {string} */
                format: "zoom" | "gong";
                meetings_per_day?: number | null;
            };
        };
        SourceCreate: components["schemas"]["ZoomSourceCreate"] | components["schemas"]["TeamsSourceCreate"] | components["schemas"]["GmailSourceCreate"] | components["schemas"]["MeetSourceCreate"] | components["schemas"]["OutlookSourceCreate"] | components["schemas"]["DatagenSourceCreate"];
        Destination: {
            id: string;
            name: string;
            description: string;
            /**
             * @description Where its data lands.
             * @enum {string}
             */
            integration: "storage" | "bigquery" | "snowflake" | "snowflake_stage" | "local" | "postgres";
            /** @description The integration's name as people read it (“BigQuery”). */
            integration_label: string;
            /** @enum {string} */
            category: "WAREHOUSE" | "STORAGE";
            status: string | null;
            /** @description Its integration's settings (secrets are never answered). */
            settings: {
                [key: string]: unknown;
            };
            credential_id: string | null;
            /** @description Connectors writing to it. */
            connector_count: number;
            /** @description When it was made (ISO 8601). */
            created_at: string;
            /** @description When it last changed (ISO 8601), or null. */
            updated_at: string | null;
        };
        StorageDestinationCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            integration: "storage";
            name: string;
            description?: string;
            /** @description Google Cloud Storage's settings. */
            settings?: {
                project_id?: string;
                bucket_name?: string;
                /** @enum {string} */
                permission_type?: "dataset_write" | "dataset_query_access";
            };
            /** @description The credential of a successful connection test made in the app. */
            credential_id: string;
            /** @description The token that test answered: it covers exactly these settings. */
            validation_token: string;
        };
        BigqueryDestinationCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            integration: "bigquery";
            name: string;
            description?: string;
            /** @description BigQuery's settings. */
            settings?: {
                project_id?: string;
                dataset_name?: string;
                /** @enum {string} */
                permission_type?: "dataset_write" | "dataset_query_access";
            };
            /** @description The credential of a successful connection test made in the app. */
            credential_id: string;
            /** @description The token that test answered: it covers exactly these settings. */
            validation_token: string;
        };
        SnowflakeDestinationCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            integration: "snowflake";
            name: string;
            description?: string;
            /** @description Snowflake's settings. */
            settings?: {
                account?: string;
                user?: string;
                password?: string;
                warehouse?: string;
                database?: string;
                schema?: string;
                stage_name?: string;
            };
            /** @description The credential of a successful connection test made in the app. */
            credential_id: string;
            /** @description The token that test answered: it covers exactly these settings. */
            validation_token: string;
        };
        SnowflakeStageDestinationCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            integration: "snowflake_stage";
            name: string;
            description?: string;
            /** @description Snowflake Stage's settings. */
            settings?: {
                account?: string;
                user?: string;
                password?: string;
                warehouse?: string;
                database?: string;
                schema?: string;
                stage_name?: string;
            };
            /** @description The credential of a successful connection test made in the app. */
            credential_id: string;
            /** @description The token that test answered: it covers exactly these settings. */
            validation_token: string;
        };
        LocalDestinationCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            integration: "local";
            name: string;
            description?: string;
            /** @description Local folder's settings. */
            settings?: Record<string, never>;
        };
        PostgresDestinationCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            integration: "postgres";
            name: string;
            description?: string;
            /** @description PostgreSQL's settings. */
            settings?: {
                host?: string;
                port?: number;
                database?: string;
                schema?: string;
                user?: string;
                password?: string;
            };
            /** @description The credential of a successful connection test made in the app. */
            credential_id: string;
            /** @description The token that test answered: it covers exactly these settings. */
            validation_token: string;
        };
        DestinationCreate: components["schemas"]["StorageDestinationCreate"] | components["schemas"]["BigqueryDestinationCreate"] | components["schemas"]["SnowflakeDestinationCreate"] | components["schemas"]["SnowflakeStageDestinationCreate"] | components["schemas"]["LocalDestinationCreate"] | components["schemas"]["PostgresDestinationCreate"];
        DestinationUpdate: {
            name: string;
            description?: string;
            /** @description The settings to change (a project, a bucket, a dataset), where its integration allows it. */
            settings?: {
                [key: string]: unknown;
            };
            /** @description With changed settings: the credential of a new successful connection test. */
            credential_id?: string;
            /** @description With changed settings: the token that test answered. */
            validation_token?: string;
        };
        SyncRun: {
            id: string;
            connector_id: string;
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            trigger: string;
            cancel_requested_at?: string | null;
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            records: number;
            bytes: number;
            error: string | null;
            range_from?: string | null;
            range_to?: string | null;
            /** @default null */
            triggered_by: string | null;
            /**
             * @default null
             * @enum {string|null}
             */
            triggered_via: "member" | "key" | null;
        };
        TransformRun: {
            id: string;
            transform_id: string;
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            trigger: string;
            cancel_requested_at?: string | null;
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            records: number;
            outputs: {
                table: string;
                rows: number;
            }[];
            error: string | null;
            /** @default null */
            triggered_by: string | null;
            /**
             * @default null
             * @enum {string|null}
             */
            triggered_via: "member" | "key" | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listSources: {
        parameters: {
            query?: {
                /** @description Records in one page (1 to 200). */
                limit?: number;
                /** @description The `next_cursor` of the page before; omitted for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of sources, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Source"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    createSource: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string: a retry with the same key and body within 24 hours gets the first answer, and the write is done once. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SourceCreate"];
            };
        };
        responses: {
            /** @description The source, created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is larger than this route accepts (64 KB; 512 KB for a transform's inputs). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is not JSON: send it with Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The Idempotency-Key was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    getSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The source. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    deleteSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    updateSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description The source, updated. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is larger than this route accepts (64 KB; 512 KB for a transform's inputs). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is not JSON: send it with Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    listDestinations: {
        parameters: {
            query?: {
                /** @description Records in one page (1 to 200). */
                limit?: number;
                /** @description The `next_cursor` of the page before; omitted for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of destinations, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Destination"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    createDestination: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string: a retry with the same key and body within 24 hours gets the first answer, and the write is done once. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DestinationCreate"];
            };
        };
        responses: {
            /** @description The destination, created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Destination"];
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is larger than this route accepts (64 KB; 512 KB for a transform's inputs). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is not JSON: send it with Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The Idempotency-Key was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    getDestination: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The destination. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Destination"];
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    deleteDestination: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    updateDestination: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DestinationUpdate"];
            };
        };
        responses: {
            /** @description The destination, updated. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Destination"];
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is larger than this route accepts (64 KB; 512 KB for a transform's inputs). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is not JSON: send it with Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    listConnectors: {
        parameters: {
            query?: {
                /** @description Records in one page (1 to 200). */
                limit?: number;
                /** @description The `next_cursor` of the page before; omitted for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of connectors, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            name: string;
                            description: string;
                            source_id: string;
                            source_name: string | null;
                            destination_ids: string[];
                            destinations: {
                                id: string;
                                name: string;
                            }[];
                            frequency: string;
                            lookback_days: number;
                            last_synced_at: string | null;
                            created_at: string;
                            updated_at: string | null;
                            platform?: string | null;
                            paused?: boolean;
                            /** @enum {string} */
                            health?: "healthy" | "running" | "queued" | "failed" | "paused" | "never_run";
                            schedule?: unknown;
                            next_run_at?: string | null;
                            last_run?: {
                                id: string;
                                status: string;
                                started_at: string | null;
                                finished_at: string | null;
                                created_at: string;
                                error: string | null;
                                records?: number;
                            } | null;
                            streams?: {
                                name: string;
                                label: string;
                                primary_key: string[];
                                cursor_field: string;
                                columns: {
                                    name: string;
                                    type: string;
                                    description: string;
                                }[];
                                enabled: boolean;
                                lands: {
                                    destination: string;
                                    location: string;
                                }[];
                                synced_to: string | null;
                            }[];
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    createConnector: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string: a retry with the same key and body within 24 hours gets the first answer, and the write is done once. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string | null;
                    source_id: string;
                    platform?: string | null;
                    destination_ids?: string[] | null;
                    frequency: string;
                    lookback_days: number;
                    first_sync?: boolean;
                };
            };
        };
        responses: {
            /** @description The connector, created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        source_id: string;
                        source_name: string | null;
                        destination_ids: string[];
                        destinations: {
                            id: string;
                            name: string;
                        }[];
                        frequency: string;
                        lookback_days: number;
                        last_synced_at: string | null;
                        created_at: string;
                        updated_at: string | null;
                        platform?: string | null;
                        paused?: boolean;
                        /** @enum {string} */
                        health?: "healthy" | "running" | "queued" | "failed" | "paused" | "never_run";
                        schedule?: unknown;
                        next_run_at?: string | null;
                        last_run?: {
                            id: string;
                            status: string;
                            started_at: string | null;
                            finished_at: string | null;
                            created_at: string;
                            error: string | null;
                            records?: number;
                        } | null;
                        streams?: {
                            name: string;
                            label: string;
                            primary_key: string[];
                            cursor_field: string;
                            columns: {
                                name: string;
                                type: string;
                                description: string;
                            }[];
                            enabled: boolean;
                            lands: {
                                destination: string;
                                location: string;
                            }[];
                            synced_to: string | null;
                        }[];
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is larger than this route accepts (64 KB; 512 KB for a transform's inputs). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is not JSON: send it with Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The Idempotency-Key was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    getConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connector. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        source_id: string;
                        source_name: string | null;
                        destination_ids: string[];
                        destinations: {
                            id: string;
                            name: string;
                        }[];
                        frequency: string;
                        lookback_days: number;
                        last_synced_at: string | null;
                        created_at: string;
                        updated_at: string | null;
                        platform?: string | null;
                        paused?: boolean;
                        /** @enum {string} */
                        health?: "healthy" | "running" | "queued" | "failed" | "paused" | "never_run";
                        schedule?: unknown;
                        next_run_at?: string | null;
                        last_run?: {
                            id: string;
                            status: string;
                            started_at: string | null;
                            finished_at: string | null;
                            created_at: string;
                            error: string | null;
                            records?: number;
                        } | null;
                        streams?: {
                            name: string;
                            label: string;
                            primary_key: string[];
                            cursor_field: string;
                            columns: {
                                name: string;
                                type: string;
                                description: string;
                            }[];
                            enabled: boolean;
                            lands: {
                                destination: string;
                                location: string;
                            }[];
                            synced_to: string | null;
                        }[];
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    deleteConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    updateConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string | null;
                    source_id: string;
                    destination_ids: string[];
                    frequency: string;
                    lookback_days?: number;
                };
            };
        };
        responses: {
            /** @description The connector, updated. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        source_id: string;
                        source_name: string | null;
                        destination_ids: string[];
                        destinations: {
                            id: string;
                            name: string;
                        }[];
                        frequency: string;
                        lookback_days: number;
                        last_synced_at: string | null;
                        created_at: string;
                        updated_at: string | null;
                        platform?: string | null;
                        paused?: boolean;
                        /** @enum {string} */
                        health?: "healthy" | "running" | "queued" | "failed" | "paused" | "never_run";
                        schedule?: unknown;
                        next_run_at?: string | null;
                        last_run?: {
                            id: string;
                            status: string;
                            started_at: string | null;
                            finished_at: string | null;
                            created_at: string;
                            error: string | null;
                            records?: number;
                        } | null;
                        streams?: {
                            name: string;
                            label: string;
                            primary_key: string[];
                            cursor_field: string;
                            columns: {
                                name: string;
                                type: string;
                                description: string;
                            }[];
                            enabled: boolean;
                            lands: {
                                destination: string;
                                location: string;
                            }[];
                            synced_to: string | null;
                        }[];
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is larger than this route accepts (64 KB; 512 KB for a transform's inputs). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is not JSON: send it with Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    triggerSync: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string: a retry with the same key and body within 24 hours gets the first answer, and the write is done once. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sync, queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: components["schemas"]["SyncRun"];
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The Idempotency-Key was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    triggerBackfill: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string: a retry with the same key and body within 24 hours gets the first answer, and the write is done once. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The first day (YYYY-MM-DD) or an ISO date-time. */
                    from: string;
                    /** @description The last day (YYYY-MM-DD) or an ISO date-time. */
                    to: string;
                    /** @description The IANA time zone whole days are read in (default UTC). */
                    time_zone?: string;
                };
            };
        };
        responses: {
            /** @description The backfill, queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: components["schemas"]["SyncRun"];
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is larger than this route accepts (64 KB; 512 KB for a transform's inputs). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is not JSON: send it with Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The Idempotency-Key was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    cancelConnectorRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string: a retry with the same key and body within 24 hours gets the first answer, and the write is done once. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancelled, or nothing was open. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {string} */
                        outcome: "cancelled" | "stopping" | "already_stopping" | "none";
                        run_id: string | null;
                        message: string;
                    };
                };
            };
            /** @description The running run is stopping. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {string} */
                        outcome: "cancelled" | "stopping" | "already_stopping" | "none";
                        run_id: string | null;
                        message: string;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The Idempotency-Key was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    listConnectorRuns: {
        parameters: {
            query?: {
                /** @description Records in one page (1 to 200). */
                limit?: number;
                /** @description The `next_cursor` of the page before; omitted for the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of runs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SyncRun"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    getConnectorRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
                /** @description The run's id. */
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        connector_id: string;
                        /** @enum {string} */
                        status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
                        trigger: string;
                        cancel_requested_at?: string | null;
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                        records: number;
                        bytes: number;
                        error: string | null;
                        range_from?: string | null;
                        range_to?: string | null;
                        attempts: {
                            attempt: number;
                            started_at: string;
                            finished_at: string | null;
                            outcome: string;
                            error: string | null;
                        }[];
                        log: {
                            at: string;
                            /** @enum {string} */
                            level: "info" | "warn" | "error";
                            message: string;
                        }[];
                        log_kept_days: number | null;
                        connector_name: string;
                        landed: {
                            name: string;
                            type: string;
                            records: number;
                            bytes: number;
                            location: string;
                        }[];
                        /** @default null */
                        triggered_by: string | null;
                        /**
                         * @default null
                         * @enum {string|null}
                         */
                        triggered_via: "member" | "key" | null;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    getConnectorRunLog: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
                /** @description The run's id. */
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One line per entry: time, level, message. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    getConnectorSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule and the next run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The schedule, or null: the Daily or Hourly slot of its frequency. */
                        schedule: {
                            /** @enum {string} */
                            kind: "interval";
                            every: number;
                            /** @enum {string} */
                            unit: "minutes" | "hours";
                        } | {
                            /** @enum {string} */
                            kind: "daily";
                            time: string;
                            time_zone: string;
                        } | {
                            /** @enum {string} */
                            kind: "cron";
                            expression: string;
                            time_zone: string;
                        } | {
                            /** @enum {string} */
                            kind: "manual";
                        } | null;
                        next_run_at: string | null;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    setConnectorSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    kind: "interval";
                    every: number;
                    /** @enum {string} */
                    unit: "minutes" | "hours";
                } | {
                    /** @enum {string} */
                    kind: "daily";
                    time: string;
                    time_zone: string;
                } | {
                    /** @enum {string} */
                    kind: "cron";
                    expression: string;
                    time_zone: string;
                } | {
                    /** @enum {string} */
                    kind: "manual";
                } | {
                    /** @enum {string} */
                    kind: "frequency";
                };
            };
        };
        responses: {
            /** @description The schedule saved, and the next run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The schedule, or null: the Daily or Hourly slot of its frequency. */
                        schedule: {
                            /** @enum {string} */
                            kind: "interval";
                            every: number;
                            /** @enum {string} */
                            unit: "minutes" | "hours";
                        } | {
                            /** @enum {string} */
                            kind: "daily";
                            time: string;
                            time_zone: string;
                        } | {
                            /** @enum {string} */
                            kind: "cron";
                            expression: string;
                            time_zone: string;
                        } | {
                            /** @enum {string} */
                            kind: "manual";
                        } | null;
                        next_run_at: string | null;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is larger than this route accepts (64 KB; 512 KB for a transform's inputs). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is not JSON: send it with Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    listTransforms: {
        parameters: {
            query?: {
                /** @description Records in one page (1 to 200). */
                limit?: number;
                /** @description The `next_cursor` of the page before; omitted for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of transforms, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            name: string;
                            description: string;
                            transform_type: string;
                            connector_id: string;
                            connector_name: string | null;
                            status: string;
                            created_at: string;
                            template_id?: string | null;
                            frequency?: string;
                            file_types?: string[];
                            inputs?: {
                                [key: string]: unknown;
                            };
                            schedule?: unknown;
                            next_run_at?: string | null;
                            connector_file_types?: string[];
                            last_run?: {
                                id: string;
                                status: string;
                                started_at: string | null;
                                finished_at: string | null;
                                created_at: string;
                                error: string | null;
                            } | null;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    createTransform: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string: a retry with the same key and body within 24 hours gets the first answer, and the write is done once. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    template_id: string;
                    name: string;
                    /** @default  */
                    description?: string;
                    connector_id: string;
                    /** @enum {boolean} */
                    permissions_setup: true;
                    /**
                     * @default daily
                     * @enum {string}
                     */
                    frequency?: "daily" | "hourly";
                    /**
                     * @default [
                     *       ".vtt",
                     *       ".txt"
                     *     ]
                     */
                    file_types?: (".vtt" | ".txt" | ".json")[];
                    /**
                     * @default PENDING
                     * @enum {string}
                     */
                    status?: "PENDING";
                    inputs?: {
                        [key: string]: unknown;
                    };
                    requirement_inputs?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description The transform, created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        transform_type: string;
                        connector_id: string;
                        connector_name: string | null;
                        status: string;
                        created_at: string;
                        template_id?: string | null;
                        frequency?: string;
                        file_types?: string[];
                        inputs?: {
                            [key: string]: unknown;
                        };
                        schedule?: unknown;
                        next_run_at?: string | null;
                        connector_file_types?: string[];
                        last_run?: {
                            id: string;
                            status: string;
                            started_at: string | null;
                            finished_at: string | null;
                            created_at: string;
                            error: string | null;
                        } | null;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is larger than this route accepts (64 KB; 512 KB for a transform's inputs). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is not JSON: send it with Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The Idempotency-Key was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    getTransform: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The transform. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        transform_type: string;
                        connector_id: string;
                        connector_name: string | null;
                        status: string;
                        created_at: string;
                        template_id?: string | null;
                        frequency?: string;
                        file_types?: string[];
                        inputs?: {
                            [key: string]: unknown;
                        };
                        schedule?: unknown;
                        next_run_at?: string | null;
                        connector_file_types?: string[];
                        last_run?: {
                            id: string;
                            status: string;
                            started_at: string | null;
                            finished_at: string | null;
                            created_at: string;
                            error: string | null;
                        } | null;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    deleteTransform: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    updateTransform: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @default  */
                    description?: string;
                };
            };
        };
        responses: {
            /** @description The transform, updated. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        transform_type: string;
                        connector_id: string;
                        connector_name: string | null;
                        status: string;
                        created_at: string;
                        template_id?: string | null;
                        frequency?: string;
                        file_types?: string[];
                        inputs?: {
                            [key: string]: unknown;
                        };
                        schedule?: unknown;
                        next_run_at?: string | null;
                        connector_file_types?: string[];
                        last_run?: {
                            id: string;
                            status: string;
                            started_at: string | null;
                            finished_at: string | null;
                            created_at: string;
                            error: string | null;
                        } | null;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is larger than this route accepts (64 KB; 512 KB for a transform's inputs). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is not JSON: send it with Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    triggerTransformRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string: a retry with the same key and body within 24 hours gets the first answer, and the write is done once. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run, queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run: components["schemas"]["TransformRun"];
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The Idempotency-Key was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    cancelTransformRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string: a retry with the same key and body within 24 hours gets the first answer, and the write is done once. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancelled, or nothing was open. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {string} */
                        outcome: "cancelled" | "stopping" | "already_stopping" | "none";
                        run_id: string | null;
                        message: string;
                    };
                };
            };
            /** @description The running run is stopping. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {string} */
                        outcome: "cancelled" | "stopping" | "already_stopping" | "none";
                        run_id: string | null;
                        message: string;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The Idempotency-Key was used with another request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    listTransformRuns: {
        parameters: {
            query?: {
                /** @description Records in one page (1 to 200). */
                limit?: number;
                /** @description The `next_cursor` of the page before; omitted for the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of runs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TransformRun"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    getTransformRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
                /** @description The run's id. */
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        transform_id: string;
                        /** @enum {string} */
                        status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
                        trigger: string;
                        cancel_requested_at?: string | null;
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                        records: number;
                        outputs: {
                            table: string;
                            rows: number;
                        }[];
                        error: string | null;
                        attempts: {
                            attempt: number;
                            started_at: string;
                            finished_at: string | null;
                            outcome: string;
                            error: string | null;
                        }[];
                        log: {
                            at: string;
                            /** @enum {string} */
                            level: "info" | "warn" | "error";
                            message: string;
                        }[];
                        log_kept_days: number | null;
                        transform_name: string;
                        /** @default null */
                        triggered_by: string | null;
                        /**
                         * @default null
                         * @enum {string|null}
                         */
                        triggered_via: "member" | "key" | null;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    getTransformRunLog: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
                /** @description The run's id. */
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One line per entry: time, level, message. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    getTransformSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule and the next run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The schedule, or null: the Daily or Hourly slot of its frequency. */
                        schedule: {
                            /** @enum {string} */
                            kind: "interval";
                            every: number;
                            /** @enum {string} */
                            unit: "minutes" | "hours";
                        } | {
                            /** @enum {string} */
                            kind: "daily";
                            time: string;
                            time_zone: string;
                        } | {
                            /** @enum {string} */
                            kind: "cron";
                            expression: string;
                            time_zone: string;
                        } | {
                            /** @enum {string} */
                            kind: "manual";
                        } | null;
                        next_run_at: string | null;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
    setTransformSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The record's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    kind: "interval";
                    every: number;
                    /** @enum {string} */
                    unit: "minutes" | "hours";
                } | {
                    /** @enum {string} */
                    kind: "daily";
                    time: string;
                    time_zone: string;
                } | {
                    /** @enum {string} */
                    kind: "cron";
                    expression: string;
                    time_zone: string;
                } | {
                    /** @enum {string} */
                    kind: "manual";
                } | {
                    /** @enum {string} */
                    kind: "frequency";
                };
            };
        };
        responses: {
            /** @description The schedule saved, and the next run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The schedule, or null: the Daily or Hourly slot of its frequency. */
                        schedule: {
                            /** @enum {string} */
                            kind: "interval";
                            every: number;
                            /** @enum {string} */
                            unit: "minutes" | "hours";
                        } | {
                            /** @enum {string} */
                            kind: "daily";
                            time: string;
                            time_zone: string;
                        } | {
                            /** @enum {string} */
                            kind: "cron";
                            expression: string;
                            time_zone: string;
                        } | {
                            /** @enum {string} */
                            kind: "manual";
                        } | null;
                        next_run_at: string | null;
                    };
                };
            };
            /** @description The request is not valid (the message says what to change). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No API key, or one that is unknown, revoked or expired. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description A read-only key asked for a write. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description No such record of the key's owner (another user's record is absent too). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The record is in use, a run is already open, or the same Idempotency-Key is still being answered. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is larger than this route accepts (64 KB; 512 KB for a transform's inputs). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description The body is not JSON: send it with Content-Type: application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
            /** @description Too many requests for this key: wait for Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "missing_api_key" | "invalid_api_key" | "read_only_key" | "rate_limited" | "invalid_request" | "not_found" | "conflict" | "idempotency_key_reused" | "idempotency_key_in_use" | "payload_too_large" | "unsupported_media_type" | "upstream_error" | "unavailable" | "internal_error";
                            message: string;
                            field?: string;
                        };
                    };
                };
            };
        };
    };
}
