/**
 * The single table, defined once. CDK builds the deployed table from this
 * and local mode creates the embedded one from it, so the two cannot drift.
 */
export const TABLE = {
  /** Default name in local mode; CDK passes the deployed name as TABLE_NAME. */
  defaultName: 'guild-modules',
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Generic index for alternate access patterns (one per entity that needs one). */
  indexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
  /** Epoch seconds; DynamoDB deletes the item some time after it passes. */
  ttlAttribute: 'expires_at',
} as const;

/** Every item carries its entity name, so a scan of the table reads as a list of records. */
export const ENTITY_ATTRIBUTE = 'entity';

/** The table name handlers use. */
export function tableName(): string {
  return process.env.TABLE_NAME || TABLE.defaultName;
}
