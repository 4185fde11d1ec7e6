CREATE TABLE `location_row_counts` (
	`relation` text NOT NULL,
	`location_id` text NOT NULL,
	`live` integer NOT NULL,
	`deleted` integer NOT NULL,
	PRIMARY KEY(`relation`, `location_id`)
);
--> statement-breakpoint
-- The counts follow every write to the two tables, pos-sync's or a hand's: a row added, removed,
-- marked deleted or brought back, or moved to another location. An order names its location by
-- its key in api_ids.
CREATE TRIGGER `order_rows_counted_insert` AFTER INSERT ON `order_rows` BEGIN
  INSERT INTO `location_row_counts` (`relation`, `location_id`, `live`, `deleted`)
  SELECT 'orders', `id`, NEW.`deleted_at` IS NULL, NEW.`deleted_at` IS NOT NULL FROM `api_ids`
  WHERE `key` = NEW.`location_ref`
  ON CONFLICT DO UPDATE SET `live` = `live` + excluded.`live`, `deleted` = `deleted` + excluded.`deleted`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_rows_counted_delete` AFTER DELETE ON `order_rows` BEGIN
  UPDATE `location_row_counts`
  SET `live` = `live` - (OLD.`deleted_at` IS NULL), `deleted` = `deleted` - (OLD.`deleted_at` IS NOT NULL)
  WHERE `relation` = 'orders' AND `location_id` = (SELECT `id` FROM `api_ids` WHERE `key` = OLD.`location_ref`);
END;
--> statement-breakpoint
CREATE TRIGGER `order_rows_counted_update` AFTER UPDATE OF `location_ref`, `deleted_at` ON `order_rows`
WHEN OLD.`location_ref` IS NOT NEW.`location_ref` OR (OLD.`deleted_at` IS NULL) <> (NEW.`deleted_at` IS NULL)
BEGIN
  UPDATE `location_row_counts`
  SET `live` = `live` - (OLD.`deleted_at` IS NULL), `deleted` = `deleted` - (OLD.`deleted_at` IS NOT NULL)
  WHERE `relation` = 'orders' AND `location_id` = (SELECT `id` FROM `api_ids` WHERE `key` = OLD.`location_ref`);
  INSERT INTO `location_row_counts` (`relation`, `location_id`, `live`, `deleted`)
  SELECT 'orders', `id`, NEW.`deleted_at` IS NULL, NEW.`deleted_at` IS NOT NULL FROM `api_ids`
  WHERE `key` = NEW.`location_ref`
  ON CONFLICT DO UPDATE SET `live` = `live` + excluded.`live`, `deleted` = `deleted` + excluded.`deleted`;
END;
--> statement-breakpoint
CREATE TRIGGER `reports_counted_insert` AFTER INSERT ON `reports` BEGIN
  INSERT INTO `location_row_counts` (`relation`, `location_id`, `live`, `deleted`)
  VALUES ('reports', NEW.`location_id`, NEW.`deleted_at` IS NULL, NEW.`deleted_at` IS NOT NULL)
  ON CONFLICT DO UPDATE SET `live` = `live` + excluded.`live`, `deleted` = `deleted` + excluded.`deleted`;
END;
--> statement-breakpoint
CREATE TRIGGER `reports_counted_delete` AFTER DELETE ON `reports` BEGIN
  UPDATE `location_row_counts`
  SET `live` = `live` - (OLD.`deleted_at` IS NULL), `deleted` = `deleted` - (OLD.`deleted_at` IS NOT NULL)
  WHERE `relation` = 'reports' AND `location_id` = OLD.`location_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `reports_counted_update` AFTER UPDATE OF `location_id`, `deleted_at` ON `reports`
WHEN OLD.`location_id` IS NOT NEW.`location_id` OR (OLD.`deleted_at` IS NULL) <> (NEW.`deleted_at` IS NULL)
BEGIN
  UPDATE `location_row_counts`
  SET `live` = `live` - (OLD.`deleted_at` IS NULL), `deleted` = `deleted` - (OLD.`deleted_at` IS NOT NULL)
  WHERE `relation` = 'reports' AND `location_id` = OLD.`location_id`;
  INSERT INTO `location_row_counts` (`relation`, `location_id`, `live`, `deleted`)
  VALUES ('reports', NEW.`location_id`, NEW.`deleted_at` IS NULL, NEW.`deleted_at` IS NOT NULL)
  ON CONFLICT DO UPDATE SET `live` = `live` + excluded.`live`, `deleted` = `deleted` + excluded.`deleted`;
END;
--> statement-breakpoint
-- A file synced before: its rows counted once.
INSERT INTO `location_row_counts` (`relation`, `location_id`, `live`, `deleted`)
SELECT 'orders', k.`id`, COUNT(*) - COUNT(o.`deleted_at`), COUNT(o.`deleted_at`)
FROM `order_rows` o JOIN `api_ids` k ON k.`key` = o.`location_ref` GROUP BY k.`id`;
--> statement-breakpoint
INSERT INTO `location_row_counts` (`relation`, `location_id`, `live`, `deleted`)
SELECT 'reports', `location_id`, COUNT(*) - COUNT(`deleted_at`), COUNT(`deleted_at`)
FROM `reports` GROUP BY `location_id`;
