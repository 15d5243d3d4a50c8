CREATE TABLE "connector_stream_states" (
	"connector_id" uuid NOT NULL,
	"stream" text NOT NULL,
	"synced_to" timestamp with time zone NOT NULL,
	"token" text,
	"landed" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"destination_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connector_stream_states_connector_id_stream_pk" PRIMARY KEY("connector_id","stream")
);
--> statement-breakpoint
ALTER TABLE "connector_stream_states" ADD CONSTRAINT "connector_stream_states_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;