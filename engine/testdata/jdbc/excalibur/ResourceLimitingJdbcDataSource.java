// A stand-in for Excalibur's ResourceLimitingJdbcDataSource, which JMeter
// 2.13's JDBC Connection Configuration configures and Debian does not
// package: it reads the same configuration and pools connections with
// Debian's commons-dbcp2, set up as JMeter 5.6 sets up its pools (DBCP,
// initial size = maximum, maximum wait = the configuration's timeout,
// connections returned as they are). Only for recording JMeter 2.13's JDBC
// samples (engine/testdata/jdbc/jmeter213.sh); never part of gojm.
package org.apache.avalon.excalibur.datasource;

import java.sql.Connection;
import java.sql.SQLException;

import org.apache.avalon.framework.configuration.Configuration;
import org.apache.avalon.framework.configuration.ConfigurationException;
import org.apache.avalon.framework.logger.Logger;
import org.apache.commons.dbcp2.BasicDataSource;

public class ResourceLimitingJdbcDataSource implements DataSourceComponent {
    private final BasicDataSource pool = new BasicDataSource();
    private String name = "";

    public void enableLogging(Logger logger) {
    }

    @Override
    public void configure(Configuration c) throws ConfigurationException {
        Configuration controller = c.getChild("pool-controller");
        int max = controller.getAttributeAsInteger("max", 1);
        pool.setMinIdle(0);
        pool.setInitialSize(max);
        pool.setMaxIdle(max);
        pool.setMaxTotal(max);
        pool.setMaxWaitMillis(controller.getAttributeAsLong("timeout", 10000));
        pool.setAutoCommitOnReturn(false);
        pool.setRollbackOnReturn(false);
        pool.setDefaultAutoCommit(Boolean.valueOf(c.getChild("auto-commit").getValue("true")));
        pool.setDriverClassName(c.getChild("driver").getValue(null));
        pool.setUrl(c.getChild("dburl").getValue(null));
        String user = c.getChild("user").getValue(null);
        if (user != null) {
            pool.setUsername(user);
            pool.setPassword(c.getChild("password").getValue(""));
        }
    }

    @Override
    public Connection getConnection() throws SQLException {
        return pool.getConnection();
    }

    public String getInstrumentableName() {
        return name;
    }

    public void setInstrumentableName(String name) {
        this.name = name;
    }

    public void dispose() {
        try {
            pool.close();
        } catch (SQLException e) {
            // the test is over
        }
    }
}
