package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leadgreen/greentokens/api"
	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/mcpserver"
	"github.com/leadgreen/greentokens/render"
	"github.com/leadgreen/greentokens/validate"
)

// seedGrids are the seven grids of the seed page's carbon table: the
// grids that every page shows.
var seedGrids = render.DefaultGrids()

// priceQuery is one price request as each surface spells it.
type priceQuery struct {
	model     string
	grids     []string
	gpu       string
	numGPUs   int     // 0: not given
	batch     float64 // 0: not given
	intensity float64 // -1: not given
}

func (q priceQuery) cli(snap string) []string {
	args := []string{"carbon", "--json", "--snapshot", snap, q.model}
	args = append(args, q.grids...)
	if q.gpu != "" {
		args = append(args, "--gpu", q.gpu)
	}
	if q.numGPUs != 0 {
		args = append(args, "--num-gpus", strconv.Itoa(q.numGPUs))
	}
	if q.batch != 0 {
		args = append(args, "--batch", strconv.FormatFloat(q.batch, 'f', -1, 64))
	}
	if q.intensity >= 0 {
		args = append(args, "--intensity", strconv.FormatFloat(q.intensity, 'f', -1, 64))
	}
	return args
}

func (q priceQuery) http() string {
	v := url.Values{"model": {q.model}, "grid": q.grids}
	if q.gpu != "" {
		v.Set("gpu", q.gpu)
	}
	if q.numGPUs != 0 {
		v.Set("num_gpus", strconv.Itoa(q.numGPUs))
	}
	if q.batch != 0 {
		v.Set("batch", strconv.FormatFloat(q.batch, 'f', -1, 64))
	}
	if q.intensity >= 0 {
		v.Set("intensity", strconv.FormatFloat(q.intensity, 'f', -1, 64))
	}
	return "/v1/" + catalogtest.Date + "/carbon?" + v.Encode()
}

func (q priceQuery) mcp() map[string]any {
	args := map[string]any{"model": q.model, "grids": q.grids, "snapshot": catalogtest.Date}
	if q.gpu != "" {
		args["gpu"] = q.gpu
	}
	if q.numGPUs != 0 {
		args["num_gpus"] = q.numGPUs
	}
	if q.batch != 0 {
		args["running_batch"] = q.batch
	}
	if q.intensity >= 0 {
		args["grid_intensity"] = q.intensity
	}
	return args
}

// TestOnePricingService prices the seed page's seven grids through the
// command line (carbon --json), the HTTP API (/v1/{date}/carbon) and MCP
// (price_carbon), and compares the answers field by field: the same
// bytes for the command line, the API and MCP's text, the same values
// for MCP's structured content, each passing schemas/carbon.schema.json.
func TestOnePricingService(t *testing.T) {
	endToEnd(t)
	root := catalogtest.Shared(t)
	defer catalogtest.Cleanup()
	snap := filepath.Join(root, catalogtest.Date)
	cat, err := catalog.Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(api.New(cat, api.Options{}))
	defer srv.Close()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(cat, "test").Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	for _, q := range []priceQuery{
		{model: "Qwen 3 32B", grids: seedGrids, intensity: -1},
		{model: "qwen-3-32b", grids: seedGrids, gpu: "H100", batch: 30, intensity: -1},
		{model: "Qwen/Qwen3-32B", grids: seedGrids, numGPUs: 1, intensity: 474},
		{model: "qwen3 14b", grids: []string{"NOR", "deu"}, numGPUs: 1, batch: 100, intensity: 0},
	} {
		t.Run(strings.Join(q.cli(""), " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(t, q.cli(snap)...)
			if code != exitOK {
				t.Fatalf("carbon: exit %d: %s", code, stderr)
			}
			if probs := validate.CheckSchema("carbon.schema.json", "carbon --json", []byte(stdout)); len(probs) != 0 {
				t.Errorf("carbon --json does not pass schemas/carbon.schema.json: %v", probs)
			}

			resp, err := http.Get(srv.URL + q.http())
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("API: status %d, %v: %s", resp.StatusCode, err, body)
			}

			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "price_carbon", Arguments: q.mcp()})
			if err != nil || res.IsError {
				t.Fatalf("MCP: %v %+v", err, res)
			}
			text := res.Content[0].(*mcp.TextContent).Text

			if diff := cmp.Diff(stdout, string(body)+"\n"); diff != "" {
				t.Errorf("carbon --json and the API differ (-cli +api):\n%s", diff)
			}
			if diff := cmp.Diff(stdout, text+"\n"); diff != "" {
				t.Errorf("carbon --json and MCP's text differ (-cli +mcp):\n%s", diff)
			}
			var fromCLI, fromMCP map[string]any
			if err := json.Unmarshal([]byte(stdout), &fromCLI); err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(res.StructuredContent)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &fromMCP); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(fromCLI, fromMCP); diff != "" {
				t.Errorf("carbon --json and MCP's structured content differ (-cli +mcp):\n%s", diff)
			}
			if rows, _ := fromCLI["rows"].([]any); len(rows) < len(q.grids) {
				t.Errorf("%d rows for %d grids", len(rows), len(q.grids))
			}
		})
	}
}
