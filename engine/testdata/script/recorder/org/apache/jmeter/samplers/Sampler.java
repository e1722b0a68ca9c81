package org.apache.jmeter.samplers;

/** Stand-in for JMeter's Sampler. */
public interface Sampler {
    String getName();
}
