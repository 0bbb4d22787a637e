import { orphanReviews } from '../../../src/orchestrations/audit/orphanReviewAudit';
import type { StoredEntity } from '../../../src/storage/tables/entities';

const entity = (rowKey: string, props: Record<string, unknown> = {}): StoredEntity =>
  ({ partitionKey: 'Sales', rowKey, etag: 'e', ...props }) as StoredEntity;

describe('orphan reviews', () => {
  it('are the reviews their employee does not list; an employee without a list owns its range', () => {
    const primaries = [
      entity('empid_000001', { EmployeeId: '000001', ReviewYears: '20202024' }),
      entity('empid_000002', { EmployeeId: '000002' }), // written before employees listed reviews
      entity('empid_000003', { EmployeeId: '000003', ReviewYears: '' }),
    ];
    const reviews = [
      entity('review_000001_2020'),
      entity('review_000001_2021'),
      entity('review_000002_1999'),
      entity('review_000003_2024'),
      entity('review_000004_2024'),
      entity('review_bogus'),
    ];
    expect(orphanReviews(reviews, primaries).map((r) => r.rowKey)).toEqual([
      'review_000001_2021',
      'review_000003_2024',
      'review_000004_2024',
    ]);
  });
});
