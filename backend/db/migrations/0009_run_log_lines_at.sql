CREATE INDEX IF NOT EXISTS "run_log_lines_at_idx" ON "run_log_lines" USING btree ("at");
