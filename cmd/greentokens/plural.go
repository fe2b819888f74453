package main

import "strconv"

// count writes n and a regular noun, plural unless n is 1: "1 grid",
// "7 grids", "0 arguments".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
