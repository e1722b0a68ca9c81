package org.apache.jmeter.protocol.jdbc.config;

/** Stands for JMeter's class so that a script importing it compiles, as it does in JMeter. */
public class DataSourceElement {}
