"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ReviewService = exports.EmployeeService = exports.DepartmentService = void 0;
exports.createDirectory = createDirectory;
/**
 * The directory's entry point: departments, employees and reviews over one `Employees` table.
 *
 * Build it with {@link createDirectory}, passing the table client (tests pass a client for a
 * unique table; the HTTP adapters pass the configured one) and, optionally, the sink that receives
 * committed employee changes for the asynchronous indexes. The table is created on first use
 * (once per process), or up front with {@link Directory.ensureTables}.
 */
const errors_1 = require("../errors");
const context_1 = require("./context");
const createEmployee_1 = require("./createEmployee");
const deleteEmployee_1 = require("./deleteEmployee");
const departments_1 = require("./departments");
const employeeQueries_1 = require("./employeeQueries");
const importEmployees_1 = require("./importEmployees");
const reviews_1 = require("./reviews");
const ttlCache_1 = require("./ttlCache");
const updateEmployee_1 = require("./updateEmployee");
const validation_1 = require("./validation");
/** Departments: the department entity, its listing, and its manager. */
class DepartmentService {
    context;
    listCache;
    constructor(context, listCache) {
        this.context = context;
        this.listCache = listCache;
    }
    /** Creates or updates a department. See {@link putDepartment}. */
    put(name, body, options = {}) {
        return (0, departments_1.putDepartment)(this.context, this.listCache, name, body, options);
    }
    /** One department, one point read. See {@link getDepartment}. */
    get(name) {
        return (0, departments_1.getDepartment)(this.context, name);
    }
    /** A page of the (cached) department list. See {@link listDepartments}. */
    list(options = {}) {
        return (0, departments_1.listDepartments)(this.context, this.listCache, options);
    }
    /** Makes an employee the manager. See {@link setManager}. */
    setManager(name, employeeId, options = {}) {
        return (0, departments_1.setManager)(this.context, name, employeeId, options);
    }
}
exports.DepartmentService = DepartmentService;
/** Employees: writes through entity group transactions, reads through keys. */
class EmployeeService {
    context;
    constructor(context) {
        this.context = context;
    }
    /** Creates one employee. See {@link createEmployee}. */
    create(department, body) {
        return (0, createEmployee_1.createEmployee)(this.context, department, body);
    }
    /** Imports up to 1,000 employees. See {@link importEmployees}. */
    import(department, rows) {
        return (0, importEmployees_1.importEmployees)(this.context, department, rows);
    }
    /** One employee by id, with ETag and stored entity. See {@link getEmployee}. */
    get(department, employeeId) {
        return (0, employeeQueries_1.getEmployee)(this.context, department, employeeId);
    }
    /** One employee by email. See {@link getEmployeeByEmail}. */
    getByEmail(department, email) {
        return (0, employeeQueries_1.getEmployeeByEmail)(this.context, department, email);
    }
    /** A page of employees by id or email range. See {@link listEmployees}. */
    list(department, range = {}, options = {}) {
        return (0, employeeQueries_1.listEmployees)(this.context, department, range, options);
    }
    /** A page of primary employee entities, for workers. See {@link listEmployeeEntities}. */
    listEntities(department, options = {}) {
        return (0, employeeQueries_1.listEmployeeEntities)(this.context, department, options);
    }
    /** Employees of a department with a last name. See {@link findByLastName}. */
    findByLastName(department, lastName, options = {}) {
        return (0, employeeQueries_1.findByLastName)(this.context, department, lastName, options);
    }
    /**
     * Applies a PATCH body (`firstName`, `lastName`, `email`, `age`; `age: null` clears it).
     *
     * @throws {ValidationError} for an invalid body. See {@link updateEmployee} for the rest.
     */
    async patch(department, employeeId, body, options = {}) {
        const patch = (0, validation_1.validateInput)(validation_1.employeePatchSchema, body, 'body');
        return (0, updateEmployee_1.updateEmployee)(this.context, department, employeeId, patch, options);
    }
    /**
     * Sets (or with `null` clears) the employee's photo URL on the employee and its email copy in
     * one transaction (for the photo upload, which stores the bytes in blob storage).
     *
     * @throws {ValidationError} for a URL that is not absolute http(s) or is over 2,048 characters.
     */
    async setPhotoUrl(department, employeeId, photoUrl, options = {}) {
        if (photoUrl !== null && (photoUrl.length > 2048 || !/^https?:\/\/[^\s]+$/.test(photoUrl))) {
            throw new errors_1.ValidationError('photoUrl must be an absolute http(s) URL of at most 2048 characters.', 'photoUrl', 'InvalidPhotoUrl');
        }
        return (0, updateEmployee_1.updateEmployee)(this.context, department, employeeId, { photoUrl }, options);
    }
    /** Deletes an employee (or, with `mustExist: false`, deletes it if it exists). See {@link deleteEmployee}. */
    delete(department, employeeId, options = {}) {
        return (0, deleteEmployee_1.deleteEmployee)(this.context, department, employeeId, options);
    }
}
exports.EmployeeService = EmployeeService;
/** Yearly reviews (compound key). */
class ReviewService {
    context;
    constructor(context) {
        this.context = context;
    }
    /** Writes one review. See {@link putReview}. */
    put(department, employeeId, year, body, options = {}) {
        return (0, reviews_1.putReview)(this.context, department, employeeId, year, body, options);
    }
    /** Every review of an employee, by year. See {@link listReviews}. */
    list(department, employeeId, select) {
        return (0, reviews_1.listReviews)(this.context, department, employeeId, select);
    }
}
exports.ReviewService = ReviewService;
/** Builds the directory services. */
function createDirectory(options) {
    const context = (0, context_1.createContext)(options);
    const listCache = new ttlCache_1.TtlCache(options.departmentCacheTtlMs ?? 30_000, options.now);
    return {
        departments: new DepartmentService(context, listCache),
        employees: new EmployeeService(context),
        reviews: new ReviewService(context),
        ensureTables: async () => {
            await context.table();
        },
    };
}
//# sourceMappingURL=directory.js.map