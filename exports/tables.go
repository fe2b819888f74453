package exports

import (
	"fmt"
	"reflect"

	"github.com/leadgreen/greentokens/format"
)

// ConfigRow is one configuration of a token task's model file, with the
// model it is of: a row of TASK/configurations and TASK/index-rows. Its
// columns are the model's names and sizes, then the configuration's keys
// in the model file's order (format.Config), each the published value.
type ConfigRow struct {
	Slug                string  `parquet:"slug"`
	Name                string  `parquet:"name"`
	ModelID             string  `parquet:"model_id"`
	ParamsB             float64 `parquet:"params_b"`
	ActiveParamsB       float64 `parquet:"active_params_b"`
	Architecture        string  `parquet:"architecture"`
	GPU                 string  `parquet:"gpu"`
	NumGPUs             int64   `parquet:"num_gpus"`
	TensorParallel      int64   `parquet:"tensor_parallel"`
	DataParallel        int64   `parquet:"data_parallel"`
	ExpertParallel      int64   `parquet:"expert_parallel"`
	Precision           string  `parquet:"precision"`
	MaxNumSeqs          int64   `parquet:"max_num_seqs"`
	AvgRequestsInFlight float64 `parquet:"avg_requests_in_flight"`
	WhPerMillion        float64 `parquet:"wh_per_million_output_tokens"`
	JoulesPerToken      float64 `parquet:"joules_per_output_token"`
	MedianITL           float64 `parquet:"median_itl_ms"`
	P90ITL              float64 `parquet:"p90_itl_ms"`
	P99ITL              float64 `parquet:"p99_itl_ms"`
	TokensPerSecond     float64 `parquet:"tokens_per_second"`
	GPUPowerWatts       int64   `parquet:"gpu_power_watts_total"`
	AvgOutputTokens     int64   `parquet:"avg_output_tokens"`
	UnderITLDeadline    bool    `parquet:"under_itl_deadline"`
	AvgRunningBatch     float64 `parquet:"avg_running_batch"`
	P95ITL              float64 `parquet:"p95_itl_ms"`
	RowID               string  `parquet:"row_id"`
	Repeat              int64   `parquet:"repeat"`
}

// modelColumns are ConfigRow's columns of the model, before the
// configuration's.
var modelColumns = []string{"slug", "name", "model_id", "params_b", "active_params_b", "architecture"}

// configRow is the row of configuration c of model m.
func configRow(m modelHead, c *format.Config) ConfigRow {
	return ConfigRow{
		Slug: m.Slug, Name: m.Name, ModelID: m.ModelID, ParamsB: float64(m.ParamsB),
		ActiveParamsB: float64(m.ActiveParamsB), Architecture: m.Architecture,
		GPU: c.GPU, NumGPUs: int64(c.NumGPUs), TensorParallel: int64(c.TensorParallel),
		DataParallel: int64(c.DataParallel), ExpertParallel: int64(c.ExpertParallel), Precision: c.Precision,
		MaxNumSeqs: int64(c.MaxNumSeqs), AvgRequestsInFlight: float64(c.AvgRequestsInFlight),
		WhPerMillion: float64(c.WhPerMillion), JoulesPerToken: float64(c.JoulesPerToken),
		MedianITL: float64(c.MedianITL), P90ITL: float64(c.P90ITL), P99ITL: float64(c.P99ITL),
		TokensPerSecond: float64(c.TokensPerSecond), GPUPowerWatts: c.GPUPowerWatts,
		AvgOutputTokens: c.AvgOutputTokens, UnderITLDeadline: c.UnderITLDeadline,
		AvgRunningBatch: float64(c.AvgRunningBatch), P95ITL: float64(c.P95ITL), RowID: c.RowID, Repeat: int64(c.Repeat),
	}
}

// modelHead is what a row says of its model.
type modelHead struct {
	Slug, Name, ModelID string
	ParamsB             format.Float
	ActiveParamsB       format.Float
	Architecture        string
}

// AreaRow is one area of grid.json: a row of the grid table.
type AreaRow struct {
	Name        string  `parquet:"name"`
	ISO3        string  `parquet:"iso3"`
	AreaType    string  `parquet:"area_type"`
	Year        int64   `parquet:"year"`
	Fallback    bool    `parquet:"fallback"`
	GCO2ePerKWh float64 `parquet:"g_co2e_per_kwh"`
}

// areaRow is the row of grid.json's area a.
func areaRow(a *format.Area) AreaRow {
	return AreaRow{Name: a.Name, ISO3: a.ISO3, AreaType: a.AreaType, Year: int64(a.Year), Fallback: a.Fallback, GCO2ePerKWh: float64(a.GCO2ePerKWh)}
}

// column is a column of a table: its name (the field's parquet tag, the
// JSON key it holds), its Table Schema type and the row struct's field.
type column struct {
	name, kind string
	field      int
}

// columnsOf lists the columns of the row struct T, in order.
func columnsOf[T any]() []column {
	t := reflect.TypeFor[T]()
	cols := make([]column, t.NumField())
	for i := range cols {
		f := t.Field(i)
		kind := map[reflect.Kind]string{reflect.String: "string", reflect.Int64: "integer", reflect.Float64: "number", reflect.Bool: "boolean"}[f.Type.Kind()]
		if kind == "" {
			panic(fmt.Sprintf("exports: %s.%s has a type no column has", t.Name(), f.Name)) // the row types above have none
		}
		cols[i] = column{name: f.Tag.Get("parquet"), kind: kind, field: i}
	}
	return cols
}

// names are the columns' names.
func names(cols []column) []string {
	var out []string
	for _, c := range cols {
		out = append(out, c.name)
	}
	return out
}
