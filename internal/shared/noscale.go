//go:build !scale

package shared

// scale: the test binary is built for make test, which reads only the
// repository's sample.
const scale = false
