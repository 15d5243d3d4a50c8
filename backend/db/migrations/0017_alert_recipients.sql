CREATE TABLE "alert_recipients" (
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"email_confirmed_at" timestamp with time zone,
	"email_token_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone,
	CONSTRAINT "alert_recipients_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "alert_recipients" ADD CONSTRAINT "alert_recipients_membership_fk" FOREIGN KEY ("workspace_id","user_id") REFERENCES "public"."workspace_members"("workspace_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_recipients_token_idx" ON "alert_recipients" USING btree ("email_token_hash");--> statement-breakpoint
-- Issue 51 item 5: each saved address becomes its workspace's earliest member's own (in a personal workspace, its user,
-- whose id is the workspace's), with its confirmation and its pending link's token as they were.
INSERT INTO "alert_recipients" ("workspace_id", "user_id", "email", "email_confirmed_at", "email_token_hash", "created_at", "updated_at")
SELECT s."owner_id", m."user_id", s."email", s."email_confirmed_at", s."email_token_hash", s."created_at", s."updated_at"
FROM "alert_settings" s
CROSS JOIN LATERAL (
  SELECT wm."user_id" FROM "workspace_members" wm
  WHERE wm."workspace_id" = s."owner_id"
  ORDER BY (wm."user_id" = s."owner_id") DESC, wm."created_at", wm."user_id"
  LIMIT 1
) m
WHERE s."email" <> '';--> statement-breakpoint
ALTER TABLE "alert_settings" DROP COLUMN "email";--> statement-breakpoint
ALTER TABLE "alert_settings" DROP COLUMN "email_confirmed_at";--> statement-breakpoint
ALTER TABLE "alert_settings" DROP COLUMN "email_token_hash";