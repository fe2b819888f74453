//go:build race

package transform

// raceEnabled: the race detector is on, and allocation counts are its.
const raceEnabled = true
