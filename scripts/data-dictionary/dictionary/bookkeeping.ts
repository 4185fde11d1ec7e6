/** What pos-sync records about its own work (src/db/schema/bookkeeping.ts): no API record. */
import { derived, utc } from "./columns.js";
import type { TableDoc } from "./types.js";

export const BOOKKEEPING_TABLES: Record<string, TableDoc> = {
  sync_runs: {
    record: null,
    meaning: "One row per sync run: when it ran, how it ended and what it did.",
    columns: {
      id: derived("Run number, increasing (auto-increment)."),
      started_at: utc("When the run started"),
      finished_at: utc("When the run ended", "null while it runs"),
      status: derived(
        "running, succeeded, partial (some windows failed), failed, or interrupted (the process ended before the run finished).",
      ),
      trigger: derived(
        "What started the run: cli, daemon, demo, or repair (pos-sync verify --repair, reading again the days that disagreed).",
      ),
      stats: derived(
        "JSON: per location and stream, how many records were fetched, inserted, updated, unchanged and rejected; null until the run ends.",
      ),
      requests: derived("HTTP requests the run made to the API; null until the run ends."),
      error: derived("Why the run failed or was interrupted; null otherwise."),
      pid: derived(
        "Process id of the pos-sync that ran it: a run still marked running whose process is gone was interrupted. Null for runs recorded before this column existed.",
      ),
      hostname: derived("Host name of the machine that ran it; null for older runs."),
    },
  },
  sync_windows: {
    record: null,
    meaning:
      "Checkpoints: per location, stream and day, whether everything the API has was stored. A day that is not complete is read again.",
    columns: {
      location_id: derived("The location (locations.id)."),
      stream: derived(
        "orders or reports (day windows), or location or catalog (one row per day a snapshot was taken).",
      ),
      day: derived(
        "YYYY-MM-DD: the day window (orders, reports: the records' business_date), or the UTC date of the snapshot.",
      ),
      status: derived(
        "complete (every record the API counts is stored and the day is over), open (the same, but the day was still going), incomplete or failed (not proven: read again next run), or suspicious (the API suddenly listed far fewer records than are stored: nothing was marked deleted, and the day is read again next run; pos-sync sync --accept-deletions accepts it).",
      ),
      api_total_count: derived(
        "The API's meta.totalCount for the day; null for snapshots or when the API gave no count.",
      ),
      stored_count: derived(
        "Records of the day found stored after the read; null for snapshots or when not counted.",
      ),
      attempts: derived("How many times the window has been recorded (read)."),
      last_error: derived("Why the last read did not complete; null when it did."),
      run_id: derived("The run that last read the window (sync_runs.id)."),
      synced_at: utc("When the window was last recorded"),
      proved_at: utc(
        "When the window was last proved to hold what the API lists",
        "null while it never was (not complete, or recorded before proofs were kept)",
      ),
      proved_by: derived(
        "How: read (a complete read of the day) or audit (the daemon's re-proof against the day's listing, POS_AUDIT_PERIOD_DAYS); null with proved_at.",
      ),
    },
  },
  history_repairs: {
    record: null,
    meaning:
      "Stored days found disagreeing with the API after they were proved (rows lost, a correction that left updatedAt alone, a record voided later), by the daemon's audit or pos-sync verify --repair, and what reading the day again did: one row per day and stream repaired.",
    columns: {
      id: derived("Row number (auto-increment)."),
      location_id: derived("The location (locations.id)."),
      stream: derived("orders or reports."),
      day: derived("The day window found disagreeing (the records' business_date)."),
      found_by: derived(
        "audit (the daemon's rolling re-proof) or verify (pos-sync verify --repair).",
      ),
      found_at: utc("When the day was read again"),
      api_count: derived(
        "The API's count of the day when found; null when not counted (a report's day that did not agree with its orders).",
      ),
      stored_count: derived(
        "Records stored for the day when found, live and rejected; null when not counted.",
      ),
      missing: derived(
        "Records the day's listing has and the database did not (live); null when the content was not compared (the counts already differed).",
      ),
      changed: derived(
        "Records stored with other content than listed: another content hash, or other rows in the contract's relations (a hand edit); null when not compared.",
      ),
      extra: derived("Records stored live that the listing no longer has; null when not compared."),
      run_id: derived("The run that read the day again (sync_runs.id)."),
      outcome: derived(
        "repaired (the day read again was proved complete, rows written), unchanged (proved complete, and nothing written: the day is as it was found) or failed (not proved: read again by the next run).",
      ),
      inserted: derived("Records the reading again inserted."),
      updated: derived(
        "Records it replaced with another version, or wrote again as the API lists them (rows edited by hand).",
      ),
      deleted: derived("Records it marked deleted (no longer listed)."),
    },
  },
  deliveries: {
    record: null,
    meaning:
      "What the daemon sends people, one row per message and recipient: the morning report of a day for some locations, an alert opening or closing. A row is the record that the message is owed (never twice: one per kind, key, channel and recipient, whatever restarts or workers do) and, while waiting, the outbox.",
    columns: {
      id: derived("Row number (auto-increment)."),
      kind: derived("morning report, or alert."),
      key: derived(
        "Which one: a report's day and the ids of the locations it covers (2026-11-28 of <id>,<id>; a report sent again by report --resend adds resent and the time), an alert's id and state (12 opened, 12 closed). Never the clock: a report is owed once per recipient and day, whatever the clock does.",
      ),
      channel: derived("e-mail or webhook."),
      recipient: derived(
        "The address of POS_REPORT_TO, or the webhook as shown without its credentials (https://hooks.example.com/…).",
      ),
      subject: derived("The message's subject line."),
      body: derived(
        "JSON: what is sent, kept so that a retry sends the message as it was made: the e-mail's text and html, or the webhook's payload.",
      ),
      status: derived(
        "waiting (in the outbox), sent, failed (refused for good: a recipient the mail server does not know, a webhook answering 404; not tried again) or retired (its recipient left the settings before it was sent).",
      ),
      attempts: derived("Attempts to send it so far."),
      next_attempt_at: utc(
        "When the outbox tries it (again): a minute after a failure that may pass, then twice as long each time, at most an hour apart; for a failed or retired message, when it ended",
      ),
      locked_at: utc(
        "When a process took it for sending: no other sends it meanwhile. A lock older than the longest a sending may last (6 minutes) has expired, so that a process that died mid-send holds it no longer",
        "null when no process holds it",
      ),
      locked_by: derived(
        "Which process holds it: its host, process id and a random part; null when none does.",
      ),
      last_error: derived(
        "Why the last attempt failed, in one line (the server's answer), or why the message was retired; null once sent.",
      ),
      created_at: utc("When the message was made"),
      sent_at: utc("When the recipient's server accepted it", "null while it waits"),
    },
  },
  alerts: {
    record: null,
    meaning:
      "The health alerts of the sync, one row per time a state started: the sync failing, a key rejected, a location's data stale, the audit repairing history. Each is sent once when it opens and once when it closes.",
    columns: {
      id: derived("Alert number (auto-increment)."),
      kind: derived("sync failing, key rejected, data stale, or audit repairing."),
      subject: derived(
        "What it is about: a key's fingerprint (key rejected), a location's id (data stale, audit repairing); empty for the sync as a whole.",
      ),
      open_key: derived(
        "kind and subject while open, null once closed: at most one open alert per kind and subject.",
      ),
      detail: derived("What was found when it opened, in a line."),
      opened_at: utc("When the state started (as the daemon found it)"),
      closed_at: utc("When it ended", "null while open"),
      resolution: derived("What was found when it closed, in a line; null while open."),
    },
  },
  rejected_records: {
    record: null,
    meaning:
      "Records the API sent that break its spec, set aside instead of stored: one row per bad record, removed once a valid version arrives or the API stops listing it.",
    columns: {
      id: derived("Row number (auto-increment)."),
      run_id: derived(
        "The run that last met the record (sync_runs.id); null when recorded outside a run.",
      ),
      location_id: derived(
        "The location whose key read the record; `unknown` for a location record without a usable id.",
      ),
      stream: derived(
        "What was being read: orders, reports, location, or a catalog list (products, categories, modifiers, paymentMethods, taxes).",
      ),
      day: derived("The day window the record came from; null for snapshot lists and reads by id."),
      record_id: derived("The record's id when it has a usable one; null otherwise."),
      record_key: derived(
        "record_id, or `sha1:` and a hash of the raw JSON when there is none: one row per bad record.",
      ),
      reason: derived("Why the record was rejected (which fields break the spec)."),
      raw: derived("The record's JSON exactly as received."),
      rejected_at: utc("When the record was last rejected"),
    },
  },
  writer_lease: {
    record: null,
    meaning:
      "Who is writing the database now (one row at most): a second writer refuses while the lease is fresh. Readers ignore it.",
    columns: {
      id: derived("Always 1 (a check constraint keeps the table to one row)."),
      holder: derived("A random id of the holding process."),
      pid: derived("Process id of the holder."),
      hostname: derived("Host the holder runs on."),
      command: derived("What the holder runs: sync, daemon, demo or migrate."),
      acquired_at: utc("When the lease was taken"),
      heartbeat_at: utc(
        "When the holder last refreshed the lease",
        "a lease not refreshed for a minute, or whose process is gone from this host, is stale",
      ),
    },
  },
  raw_records: {
    record: null,
    meaning:
      "The raw archive: each record's JSON exactly as the API sent it (fields pos-sync does not know included), compressed, one row per record, apart from the typed tables so that their scans stay lean. Read one back as text with `pos-sync raw TABLE ID`. Empty with POS_KEEP_RAW=false.",
    columns: {
      table_name: derived(
        "The typed table that holds the record's row: orders, reports, locations, devices, products, categories, modifiers, payment_methods or taxes.",
      ),
      location_id: derived("The record's location (locations.id; for a location, its own id)."),
      id: derived("The record's id (the key of its row in table_name, with location_id)."),
      dictionary_id: derived(
        "The preset dictionary it was compressed with (raw_dictionaries.id); null for none.",
      ),
      payload: derived(
        "The JSON, deflated (raw DEFLATE, RFC 1951) with that dictionary: node's zlib.inflateRawSync(payload, { dictionary }) or any zlib reads it back.",
      ),
      synced_at: utc("When this version of the record was archived"),
    },
  },
  raw_dictionaries: {
    record: null,
    meaning:
      "Preset dictionaries of the raw archive's compression: 8 KB of JSON from the first records of a table, learned once per database and never changed, so that small documents compress well (about 6 times for an order).",
    columns: {
      id: derived("Dictionary number (auto-increment)."),
      table_name: derived("The table whose records it was learned from."),
      dictionary: derived("The dictionary's bytes."),
      created_at: utc("When it was learned"),
    },
  },
  schema_upgrades: {
    record: null,
    meaning:
      "Upgrades of stored data that a SQL migration cannot do, each recorded once finished (archive-raw-columns: the JSON of an older database moved into raw_records). An interrupted one carries on at the next pos-sync migrate or sync.",
    columns: {
      name: derived("Which upgrade."),
      finished_at: utc("When it finished"),
    },
  },
  sync_state: {
    record: null,
    meaning: "What a sync remembers per location beyond its windows, as name/value pairs.",
    columns: {
      location_id: derived("The location (locations.id)."),
      name: derived(
        "What is remembered: start_date, the first day of the location's history; utc_offset_minutes, the location's UTC offset as its reports showed it before any of its orders was stored; audit_pace, where the daemon's audit of its stored days stands.",
      ),
      value: derived(
        "The value, as text (a YYYY-MM-DD day for start_date, a number of minutes for utc_offset_minutes, JSON for audit_pace: the pace's cursor in time and the period it was kept for).",
      ),
      updated_at: utc("When the value was last set"),
    },
  },
};
