//go:build scale

package shared

// scale: the test binary is built for make scale.
const scale = true
