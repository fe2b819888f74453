package diff

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/leaderboard"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// releaseWith is a release that archives chat as its primary task file,
// and nothing else.
func releaseWith(t *testing.T, chat []byte) *store.Release {
	t.Helper()
	sum := sha256.Sum256(chat)
	m := &format.Manifest{Version: format.ManifestVersion, Date: sample.SeedDate, Sources: []format.SourceFile{{
		File: format.File{Path: chatPath, Size: int64(len(chat)), SHA256: hex.EncodeToString(sum[:])},
		Name: format.PrimaryTask().File(),
	}}}
	mb, err := format.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{format.ManifestPath: {Data: mb}, chatPath: {Data: chat}}
	r, err := store.Open(context.Background(), fsys, "test")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// wantChatRows is what Diff compares of a task file's rows, computed the
// plain way: the whole file parsed by leaderboard.ParseTask, then filtered
// by leaderboard.Stable.
func wantChatRows(t *testing.T, data []byte) (map[rowKey]*upRow, error) {
	t.Helper()
	rows, err := leaderboard.ParseTask(format.PrimaryTask().ID, data)
	if err != nil {
		return nil, err
	}
	stable, _ := leaderboard.Stable(rows)
	x := newRowIndex()
	x.add(stable)
	return x.rows, nil
}

// TestDiffChatRows: the archived Text Conversation rows read as a stream
// are those of ParseTask and Stable on the whole file, whether each
// model's rows are together (one model at a time), apart (all the rows at
// once), or the file is one the stream does not take (ParseTask's error).
func TestDiffChatRows(t *testing.T) {
	orig, err := os.ReadFile(filepath.Join(sample.Leaderboard(), "tasks", "lm-arena-chat.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(orig, &doc); err != nil {
		t.Fatal(err)
	}
	var rows []json.RawMessage
	if err := json.Unmarshal(doc["configurations"], &rows); err != nil {
		t.Fatal(err)
	}
	withRows := func(rows []json.RawMessage) []byte {
		b, err := json.Marshal(rows)
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Replace(orig, doc["configurations"], b, 1)
	}
	// Apart: the rows dealt out model by model in turn, and an exact
	// duplicate of the first row appended at the end (excluded by Stable).
	var byModel [][]json.RawMessage
	index := map[string]int{}
	for _, r := range rows {
		var id struct {
			ModelID string `json:"model_id"`
		}
		json.Unmarshal(r, &id)
		i, ok := index[id.ModelID]
		if !ok {
			i = len(byModel)
			index[id.ModelID] = i
			byModel = append(byModel, nil)
		}
		byModel[i] = append(byModel[i], r)
	}
	var dealt []json.RawMessage
	for n := 0; len(dealt) < len(rows); n++ {
		for _, m := range byModel {
			if n < len(m) {
				dealt = append(dealt, m[n])
			}
		}
	}
	dealt = append(dealt, rows[0])
	notUTF8 := bytes.Replace(orig, []byte(`"task_display_name": "`), []byte("\"task_display_name\": \"\xff"), 1)
	if bytes.Equal(notUTF8, orig) {
		t.Fatal("test setup: no task_display_name")
	}
	badRow := append([]json.RawMessage{}, rows...)
	badRow[5] = json.RawMessage(strings.Replace(string(badRow[5]), `"num_gpus"`, `"num_gpus": "two", "x"`, 1))

	for _, tc := range []struct {
		name    string
		data    []byte
		stream  error // streamTask's verdict
		wantErr string
	}{
		{"as archived", orig, nil, ""},
		{"reformatted", withRows(rows), nil, ""},
		{"models apart", withRows(dealt), errNotGrouped, ""},
		{"data after the object", append(append([]byte{}, orig...), " {}"...), errSlowPath, "after the top-level value"},
		{"not UTF-8 outside the rows", notUTF8, errSlowPath, "not valid UTF-8"},
		{"a bad row", withRows(badRow), errSlowPath, "configurations[5]"},
		{"no rows", withRows(nil), errSlowPath, "missing or empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := releaseWith(t, tc.data)
			grouped := map[string]bool{}
			last := ""
			err := streamTask(format.PrimaryTask().ID, bytes.NewReader(tc.data), func(r leaderboard.Row) bool {
				if r.ModelID != last && grouped[r.ModelID] {
					return false
				}
				grouped[r.ModelID], last = true, r.ModelID
				return true
			})
			if err != tc.stream {
				t.Errorf("streamTask: %v, want %v", err, tc.stream)
			}
			got, err := chatRows(s)
			want, wantErr := wantChatRows(t, tc.data)
			if tc.wantErr != "" {
				if wantErr == nil || !strings.Contains(wantErr.Error(), tc.wantErr) {
					t.Fatalf("test setup: ParseTask says %v, want an error saying %q", wantErr, tc.wantErr)
				}
				if err == nil || err.Error() != wantErr.Error() {
					t.Errorf("chatRows: %v\nwant ParseTask's error: %v", err, wantErr)
				}
				return
			}
			if err != nil || wantErr != nil {
				t.Fatalf("chatRows: %v; ParseTask: %v", err, wantErr)
			}
			if len(want) == 0 {
				t.Fatal("test setup: no stable rows")
			}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(upRow{}, rowKey{})); diff != "" {
				t.Errorf("rows (-ParseTask +chatRows):\n%s", diff)
			}
		})
	}
}

func TestNaturalCompare(t *testing.T) {
	ids := []string{"m/H100/2/128", "m/B200/1/8", "m/H100/2/16", "m/H100/2/8", "m/H100/2/8/r2", "m/H100/10/8", "m/H100/2/096"}
	slices.SortFunc(ids, naturalCompare)
	want := []string{"m/B200/1/8", "m/H100/2/8", "m/H100/2/8/r2", "m/H100/2/16", "m/H100/2/096", "m/H100/2/128", "m/H100/10/8"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
