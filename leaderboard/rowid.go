package leaderboard

import (
	"fmt"

	"github.com/leadgreen/greentokens/format"
)

// TaskRows parses a task file, applies the stability filter, and returns
// its stable rows by published row id (format.RowID; repeats numbered in
// upstream order): what a reader of a snapshot uses to find the unrounded
// row behind a published configuration.
func TaskRows(task string, data []byte) (map[string]*Row, error) {
	rows, err := ParseTask(task, data)
	if err != nil {
		return nil, err
	}
	stable, _ := Stable(rows)
	return RowIDs(task, stable)
}

// RowIDs returns a task's stable rows (as Stable returns them, in upstream
// order) by row id, as TaskRows does, for a caller that has parsed the task
// file already. The map points into stable.
func RowIDs(task string, stable []Row) (map[string]*Row, error) {
	type key struct {
		model, gpu string
		n, cap     int
	}
	seen := map[key]int{}
	out := make(map[string]*Row, len(stable))
	for i := range stable { // upstream order
		r := &stable[i]
		slug := Slug(r.Nickname)
		if slug == "" {
			return nil, fmt.Errorf("%s: field %q: %q gives an empty slug", r.Label(), FieldNickname, r.Nickname)
		}
		k := key{r.ModelID, r.GPU, r.NumGPUs, r.MaxNumSeqs}
		seen[k]++
		id := format.RowID(task, slug, r.GPU, r.NumGPUs, r.MaxNumSeqs, seen[k])
		if _, dup := out[id]; dup {
			return nil, fmt.Errorf("%s: row id %s is taken by another model with the same slug", r.Label(), id)
		}
		out[id] = r
	}
	return out, nil
}
