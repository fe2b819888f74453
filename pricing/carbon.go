package pricing

import (
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/leaderboard"
)

// Unit is a functional unit a carbon price is per (SCI's R, ISO/IEC
// 21031:2024): a billion output tokens, a request, 1,000 requests. Every
// unit is priced by the one formula (Price), with the unit's own
// parameters:
//
//	price = energy (Wh per the basis's unit) x PUE x g CO2e per kWh / Divisor
//
// rounded once to Decimals. A task of another kind (an image, a video) is
// priced per another Unit value with its own Basis, not another formula.
type Unit struct {
	// Key is the price's key in an answer:
	// "kg_co2e_per_billion_output_tokens".
	Key string
	// Name is what the price is per, in words: "billion output tokens".
	Name string
	// Mass is the unit of the price's mass: "kg" or "g".
	Mass string
	// Basis is the upstream energy the unit is priced from.
	Basis Basis
	// Divisor turns Wh per the basis's unit x g CO2e per kWh into the
	// price's mass per unit: 1000 for kg per billion tokens from Wh per
	// million (x 1000 million per billion, / 1000 Wh per kWh, / 1000 g
	// per kg), 1000 for g per request from Wh per request, 1 for g per
	// 1,000 requests.
	Divisor float64
	// Decimals is how many decimals the price is rounded to.
	Decimals int
	// Formula is the formula in the words every surface's answer gives it.
	Formula string
}

// Basis is the upstream energy figure of a row a unit is priced from.
type Basis int

const (
	// TokenEnergy is the row's energy_per_token_joules, as Wh per
	// million output tokens (leaderboard.Row.WhPerMillion).
	TokenEnergy Basis = iota
	// RequestEnergy is the row's energy_per_request_joules, as Wh per
	// request (joules / 3600).
	RequestEnergy
)

// Energy returns r's unrounded energy in Wh per the basis's unit (Wh per
// million output tokens, Wh per request), read from the archived upstream
// row; false when upstream has no such figure for the row, or one that is
// not plausible.
func (b Basis) Energy(r *leaderboard.Row) (float64, bool) {
	switch b {
	case TokenEnergy:
		if r.EnergyPerToken == nil {
			return 0, false
		}
		return r.WhPerMillion(), true
	case RequestEnergy:
		// A stable row's energy per request over its energy per token is
		// its average output length (the leaderboard defines the one as the
		// other times it): outside the leaderboard package's plausibility
		// bounds on an output length (a negative, zero, infinite or
		// mistyped figure), it is not priced.
		if r.EnergyPerRequest == nil || r.EnergyPerToken == nil || *r.EnergyPerToken <= 0 {
			return 0, false
		}
		if n := *r.EnergyPerRequest / *r.EnergyPerToken; !(n >= leaderboard.MinOutputTokens && n <= leaderboard.MaxOutputTokens) {
			return 0, false
		}
		return *r.EnergyPerRequest / leaderboard.JoulesPerWh, true
	}
	return 0, false
}

// The functional units of a task of output tokens.
var (
	// PerBillionOutputTokens is the index's own unit: kg CO2e per billion
	// output tokens.
	PerBillionOutputTokens = Unit{Key: "kg_co2e_per_billion_output_tokens", Name: "billion output tokens", Mass: "kg",
		Basis: TokenEnergy, Divisor: 1000, Decimals: 1,
		Formula: "kg CO2e per billion output tokens = Wh per million output tokens x PUE x g CO2e per kWh / 1000, from the unrounded Wh/M of the archived upstream row, rounded once to 1 decimal"}
	// PerRequest is g CO2e per request, from the upstream energy per
	// request (the average request of the leaderboard's workload).
	PerRequest = Unit{Key: "g_co2e_per_request", Name: "request", Mass: "g",
		Basis: RequestEnergy, Divisor: 1000, Decimals: 4,
		Formula: "g CO2e per request = Wh per request x PUE x g CO2e per kWh / 1000, from the unrounded energy_per_request_joules / 3600 of the archived upstream row, rounded once to 4 decimals"}
	// PerThousandRequests is g CO2e per 1,000 requests.
	PerThousandRequests = Unit{Key: "g_co2e_per_thousand_requests", Name: "1,000 requests", Mass: "g",
		Basis: RequestEnergy, Divisor: 1, Decimals: 1,
		Formula: "g CO2e per 1,000 requests = Wh per request x 1000 x PUE x g CO2e per kWh / 1000, from the unrounded energy_per_request_joules / 3600 of the archived upstream row, rounded once to 1 decimal"}
)

// TokenUnits are the units a task of output tokens is priced per, in the
// order an answer gives them.
func TokenUnits() []Unit { return []Unit{PerBillionOutputTokens, PerRequest, PerThousandRequests} }

// DefaultPUE is the power usage effectiveness a price assumes when none is
// given: 1, the GPU energy as measured with no data-centre overhead.
const DefaultPUE = 1.0

// Price is the carbon of one unit u for energy wh (Wh per u.Basis's unit,
// unrounded) in a data centre of power usage effectiveness pue on a grid
// of gPerKWh g CO2e per kWh: wh x pue x gPerKWh / u.Divisor, rounded once
// to u.Decimals, half to even on the exact binary value of the unrounded
// product. With pue 1 the product is wh x gPerKWh exactly. A NaN or
// infinite input gives a value that Float refuses to print.
func (u Unit) Price(wh, pue, gPerKWh float64) format.Float {
	return format.Round(wh*pue*gPerKWh/u.Divisor, u.Decimals)
}

// KgPerBillionTokens is the carbon of a billion output tokens, in kg CO2e,
// for a model that takes whPerM Wh per million output tokens on a grid of
// gPerKWh g CO2e per kWh, with no data-centre overhead:
// PerBillionOutputTokens priced at PUE 1, whPerM x gPerKWh / 1000 rounded
// once to one decimal (the pages' and the site's carbon tables).
func KgPerBillionTokens(whPerM, gPerKWh float64) format.Float {
	return PerBillionOutputTokens.Price(whPerM, DefaultPUE, gPerKWh)
}

// Formula is how the index's own unit is priced, in the words the API's,
// the MCP server's and the command line's answers give it.
var Formula = PerBillionOutputTokens.Formula

// The bases of a diffusion task's rows (leaderboard.DiffusionRow), which
// DiffusionEnergy reads.
const (
	// GenerationEnergy is the row's energy per image or video
	// (energy_per_image_joules, energy_per_video_joules), as Wh per image
	// or video (leaderboard.DiffusionRow.Wh).
	GenerationEnergy Basis = iota + RequestEnergy + 1
	// VideoMinuteEnergy is a video row's energy per minute of video: its
	// Wh per video x 60 / the seconds of each video (num_frames / fps).
	VideoMinuteEnergy
)

// DiffusionEnergy returns r's unrounded energy in Wh per the basis's unit
// (Wh per image or video, Wh per minute of video), read from the archived
// upstream row; false for a basis of a token task's rows, a row without
// an energy, or a minute of video of a row that is not a video's.
func (b Basis) DiffusionEnergy(r *leaderboard.DiffusionRow) (float64, bool) {
	if r.Energy == nil {
		return 0, false
	}
	switch b {
	case GenerationEnergy:
		return r.Wh(), true
	case VideoMinuteEnergy:
		if s := r.VideoSeconds(); r.Video && s > 0 {
			return r.Wh() * 60 / s, true
		}
	}
	return 0, false
}

// The functional units of a diffusion task: an image or 1,000 images, a
// video or a minute of video.
var (
	// PerImage is g CO2e per generated image.
	PerImage = Unit{Key: "g_co2e_per_image", Name: "image", Mass: "g",
		Basis: GenerationEnergy, Divisor: 1000, Decimals: 4,
		Formula: "g CO2e per image = Wh per image x PUE x g CO2e per kWh / 1000, from the unrounded energy_per_image_joules / 3600 of the archived upstream row, rounded once to 4 decimals"}
	// PerThousandImages is kg CO2e per 1,000 generated images.
	PerThousandImages = Unit{Key: "kg_co2e_per_thousand_images", Name: "1,000 images", Mass: "kg",
		Basis: GenerationEnergy, Divisor: 1000, Decimals: 4,
		Formula: "kg CO2e per 1,000 images = Wh per image x 1000 x PUE x g CO2e per kWh / 1000 / 1000, from the unrounded energy_per_image_joules / 3600 of the archived upstream row, rounded once to 4 decimals"}
	// PerVideo is g CO2e per generated video.
	PerVideo = Unit{Key: "g_co2e_per_video", Name: "video", Mass: "g",
		Basis: GenerationEnergy, Divisor: 1000, Decimals: 2,
		Formula: "g CO2e per video = Wh per video x PUE x g CO2e per kWh / 1000, from the unrounded energy_per_video_joules / 3600 of the archived upstream row, rounded once to 2 decimals"}
	// PerVideoMinute is g CO2e per minute of generated video.
	PerVideoMinute = Unit{Key: "g_co2e_per_minute_of_video", Name: "minute of video", Mass: "g",
		Basis: VideoMinuteEnergy, Divisor: 1000, Decimals: 1,
		Formula: "g CO2e per minute of video = Wh per video x 60 / (num_frames / fps) x PUE x g CO2e per kWh / 1000, from the unrounded energy_per_video_joules / 3600 and the video's length of the archived upstream row, rounded once to 1 decimal"}
)

// UnitsOf returns the units a task is priced per, in the order an answer
// gives them: TokenUnits for a task of output tokens, PerImage and
// PerThousandImages for images, PerVideo and PerVideoMinute for videos.
func UnitsOf(t format.Task) []Unit {
	switch t.Kind {
	case format.Images:
		return []Unit{PerImage, PerThousandImages}
	case format.Videos:
		return []Unit{PerVideo, PerVideoMinute}
	}
	return TokenUnits()
}
