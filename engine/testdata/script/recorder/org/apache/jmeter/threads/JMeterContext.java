package org.apache.jmeter.threads;

import java.util.Properties;
import org.apache.jmeter.samplers.Sampler;
import org.apache.jmeter.samplers.SampleResult;

/** Stand-in for JMeter's JMeterContext. */
public class JMeterContext {
    private final JMeterVariables vars;
    private final Properties props;
    private final Sampler sampler;
    private final SampleResult prev;
    public JMeterContext(JMeterVariables vars, Properties props, Sampler sampler, SampleResult prev) {
        this.vars = vars; this.props = props; this.sampler = sampler; this.prev = prev;
    }
    public JMeterVariables getVariables() { return vars; }
    public Properties getProperties() { return props; }
    public int getThreadNum() { return 0; }
    public Sampler getCurrentSampler() { return sampler; }
    public SampleResult getPreviousResult() { return prev; }
    public JMeterThread getThread() { return new JMeterThread(); }
    public AbstractThreadGroup getThreadGroup() { return new AbstractThreadGroup(); }
    public boolean isSamplingStarted() { return true; }
}
