-- pg-boss 12 migrates its own schema from pg-boss 11's (version 25) on, not from pg-boss 10's (version 24). A
-- pg-boss 10 schema is dropped here, before pg-boss 12 starts and installs its own: its jobs are derived data. Every
-- run the runs tables hold as queued or running gets a new job from the runs engine's recovery (recoverLost), which a
-- worker process runs as it starts; schedules are created again at start.
DO $$
BEGIN
  IF to_regclass('pgboss.version') IS NOT NULL THEN
    IF (SELECT max(version) FROM pgboss.version) < 25 THEN
      DROP SCHEMA pgboss CASCADE;
    END IF;
  END IF;
END $$;
