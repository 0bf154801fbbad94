/**
 * The single table, defined once. CDK builds the deployed table from this
 * and local mode creates the embedded one from it, so the two cannot drift.
 */
export const TABLE = {
  /** Default name in local mode; CDK passes the deployed name as TABLE_NAME. */
  defaultName: 'guild-modules',
  partitionKey: 'pk',
  sortKey: 'sk',
  /**
   * Generic indexes for alternate access patterns, overloaded by entity.
   * gsi1: the scheduler's due index, reaction-role claims by member,
   * statistics by member; gsi2: statistics by channel; gsi3: statistics by
   * member and channel. Each lags the table on AWS: never for a decision.
   */
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  ],
  /** Epoch seconds; DynamoDB deletes the item some time after it passes. */
  ttlAttribute: 'expires_at',
} as const;

/** Every item carries its entity name, so a scan of the table reads as a list of records. */
export const ENTITY_ATTRIBUTE = 'entity';

/** The table name handlers use. */
export function tableName(): string {
  return process.env.TABLE_NAME || TABLE.defaultName;
}
