package pricing

import "github.com/leadgreen/greentokens/format"

// KgPerBillionTokens is the carbon of a billion output tokens, in kg CO2e,
// for a model that takes whPerM Wh per million output tokens on a grid of
// gPerKWh g CO2e per kWh: whPerM x gPerKWh / 1000, rounded once to one
// decimal, half to even on the exact binary value of the unrounded product.
// (Wh/M x 1000 = Wh/G; / 1000 = kWh/G; x g/kWh = g/G; / 1000 = kg/G.)
// A NaN or infinite input gives a value that Float refuses to print.
func KgPerBillionTokens(whPerM, gPerKWh float64) format.Float {
	return format.Round(whPerM*gPerKWh/1000, 1)
}

// Formula is how every price is computed, in the words the API's, the MCP
// server's and the command line's answers give it.
const Formula = "kg CO2e per billion output tokens = Wh per million output tokens x g CO2e per kWh / 1000, from the unrounded Wh/M of the archived upstream row, rounded once to 1 decimal"
