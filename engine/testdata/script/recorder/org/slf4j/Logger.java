package org.slf4j;

/** Stand-in for SLF4J's Logger with its overloads. */
public interface Logger {
    void info(String msg); void info(String f, Object a); void info(String f, Object a, Object b); void info(String f, Object... a); void info(String msg, Throwable t);
    void warn(String msg); void warn(String f, Object a); void warn(String f, Object a, Object b); void warn(String f, Object... a); void warn(String msg, Throwable t);
    void error(String msg); void error(String f, Object a); void error(String f, Object a, Object b); void error(String f, Object... a); void error(String msg, Throwable t);
    void debug(String msg); void debug(String f, Object a); void debug(String f, Object a, Object b); void debug(String f, Object... a); void debug(String msg, Throwable t);
    boolean isDebugEnabled(); boolean isInfoEnabled(); boolean isWarnEnabled(); boolean isErrorEnabled();
}
