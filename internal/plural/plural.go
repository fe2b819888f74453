// Package plural writes a count of things in English, as the command's
// messages, verify's report and the API's errors print it.
package plural

import "strconv"

// Count writes n and a regular noun, plural unless n is 1: "1 grid",
// "7 grids", "0 arguments", "2 GPUs".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
