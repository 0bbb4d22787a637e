/**
 * The directory operations the move orchestration runs itself, each in its own activity and
 * transaction (src/orchestrations/move): insert at the target, update, delete at the source, carry
 * the reviews over. A named surface for that orchestration only (lint allows it nowhere else);
 * everyone else writes through the services of src/directory/index.ts.
 */
export { deleteEmployee } from './employees/deleteEmployee';
export { emailTaken, employeeExists } from './directoryErrors';
export { insertEmployee } from './employees/insertEmployee';
export { reviewYearsOf } from './employees/reviews';
export { writeReviewEntities } from './employees/reviewCopies';
export { updateEmployee, type EmployeeChanges } from './employees/updateEmployee';
