// A stand-in for Excalibur's DataSourceComponent interface, which JMeter
// 2.13's JDBC Connection Configuration is written against and Debian does
// not package. Only for recording JMeter 2.13's JDBC samples
// (engine/testdata/jdbc/jmeter213.sh); never part of gojm.
package org.apache.avalon.excalibur.datasource;

import java.sql.Connection;
import java.sql.SQLException;

import org.apache.avalon.framework.component.Component;
import org.apache.avalon.framework.configuration.Configurable;

public interface DataSourceComponent extends Component, Configurable {
    Connection getConnection() throws SQLException;
}
