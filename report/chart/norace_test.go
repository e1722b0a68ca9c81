//go:build !race

package chart

// raceEnabled: the race detector slows the collecting sinks tenfold.
const raceEnabled = false
