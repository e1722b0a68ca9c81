// Package jdbc is JMeter's protocol/jdbc: the JDBC Connection
// Configuration (DataSourceElement, saved as JDBCDataSource) and the JDBC
// Request (JDBCSampler), with the JDBC PreProcessor and PostProcessor that
// run the same statements. A plan's JDBC URL and driver class choose a
// pure-Go database/sql driver: PostgreSQL (pgx), MySQL and MariaDB
// (go-sql-driver/mysql), SQL Server (go-mssqldb, for Microsoft's driver
// and jTDS) and Oracle (go-ora, thin URLs). Databases whose only driver
// runs inside the JVM (H2, HSQLDB, Derby and the rest) are refused by
// name, saying what to do.
//
// What the sampler writes is what JMeter's AbstractJDBCTestElement writes:
// a result set as tab-separated rows under a header of column labels, "N
// updates" for an update, the Callable Statement's results and output
// parameters; each value as the Java driver's getObject().toString() would
// show it (values.go). Failures carry JMeter's codes and messages: a
// java.sql.SQLException as "SQLState errorCode" with the exception's
// toString as the message, anything else as "000" (errors.go).
//
// A configuration's pool is per run (element.Shared) and bounded by its
// "Max Number of Connections"; 0 gives each thread a connection of its own
// (element.Local), as JMeter's per-thread pools do. A pool hands out
// connections that remember their auto-commit mode and open transaction
// between samples, as a JDBC connection does.
//
// It imports element, jmx, internal/java, the standard library and the
// four drivers.
package jdbc
