-- The outbox's own lock: who took a message for sending and when, instead of its next attempt
-- moved ahead. Existing rows start unlocked: a message an earlier version took has its next
-- attempt moved ahead by that claim, and is tried then, as it would have been.
ALTER TABLE `deliveries` ADD `locked_at` text;--> statement-breakpoint
ALTER TABLE `deliveries` ADD `locked_by` text;
