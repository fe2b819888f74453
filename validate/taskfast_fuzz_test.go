package validate

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// taskGen writes a task-file-like document from src: keys that are equal
// or fold-equal to task and configurations in many spellings, rows with
// keys twice and in other cases, strings with escapes and bad bytes.
type taskGen struct {
	src []byte
	out bytes.Buffer
}

func (g *taskGen) pick(n int) int {
	if len(g.src) == 0 {
		return 0
	}
	c := g.src[0]
	g.src = g.src[1:]
	return int(c) % n
}

var tgKeys = []string{`"task"`, `"Task"`, `"TASK"`, `"tas\u212a"`, "\"tas\u212a\"", `"t\u0061sk"`, `"configurations"`, `"CONFIGURATIONS"`,
	`"Configurations"`, `"x"`, `"X"`, `"ſ"`, `"S"`, `"s"`, `"k"`, "\"\u212a\"", `"K"`, `"model_id"`, `"Model_ID"`, `"mod\u0065l_id"`,
	`"num_gpus"`, `"gpu_model"`, `""`, `"\ud800"`, "\"\xff\"", `"İ"`, `"i"`, `"ı"`, `"I"`}

var tgScalars = []string{`"gpqa"`, `"t"`, `null`, `true`, `1`, `-0`, `1e999`, `123456789012345678901234567890`, `"\ud83d\ude00"`,
	`"\ud800"`, "\"\xff\"", `"\u0000"`, `"a\"b"`, `"\\"`, `0.5`, `"H100"`, `8`, "\"\u2028\""}

func (g *taskGen) ws() {
	g.out.WriteString([]string{"", " ", "\n", "\t", "\r\n  ", ""}[g.pick(6)])
}

func (g *taskGen) value(depth int) {
	if depth > 4 {
		g.out.WriteString(tgScalars[g.pick(len(tgScalars))])
		return
	}
	switch g.pick(5) {
	case 0:
		g.object(depth + 1)
	case 1:
		g.out.WriteByte('[')
		n := g.pick(4)
		for i := range n {
			if i > 0 {
				g.out.WriteByte(',')
			}
			g.ws()
			g.value(depth + 1)
			g.ws()
		}
		g.out.WriteByte(']')
	default:
		g.out.WriteString(tgScalars[g.pick(len(tgScalars))])
	}
}

func (g *taskGen) object(depth int) {
	g.out.WriteByte('{')
	n := g.pick(5)
	for i := range n {
		if i > 0 {
			g.out.WriteByte(',')
		}
		g.ws()
		g.out.WriteString(tgKeys[g.pick(len(tgKeys))])
		g.ws()
		g.out.WriteByte(':')
		g.ws()
		g.value(depth)
	}
	g.ws()
	g.out.WriteByte('}')
}

func (g *taskGen) doc() []byte {
	g.ws()
	switch g.pick(12) {
	case 0:
		g.value(0)
	default:
		g.out.WriteByte('{')
		n := 1 + g.pick(4)
		for i := range n {
			if i > 0 {
				g.out.WriteByte(',')
			}
			g.ws()
			k := tgKeys[g.pick(len(tgKeys))]
			if g.pick(2) == 0 {
				k = tgKeys[g.pick(8)]
			}
			g.out.WriteString(k)
			g.out.WriteString(": ")
			if g.pick(3) == 0 {
				g.out.WriteByte('[')
				rows := g.pick(4)
				for r := range rows {
					if r > 0 {
						g.out.WriteString(", ")
					}
					g.value(1)
				}
				g.out.WriteByte(']')
			} else {
				g.value(1)
			}
		}
		g.ws()
		g.out.WriteByte('}')
	}
	g.ws()
	if g.pick(10) == 0 { // a stray byte
		g.out.WriteByte(byte(g.pick(256)))
	}
	return g.out.Bytes()
}

func FuzzParseTaskFast(f *testing.F) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 32 {
		b := make([]byte, 128)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		data := (&taskGen{src: src}).doc()
		checkTaskParseSame(t, string(data), "gpqa", data, false)
	})
}

// TestParseTaskFastRandom: FuzzParseTaskFast's documents, from random bytes.
func TestParseTaskFastRandom(t *testing.T) {
	n := 5000
	if testing.Short() {
		n = 300
	}
	r := rand.New(rand.NewPCG(7, 8))
	fast := 0
	for range n {
		b := make([]byte, 32+r.IntN(200))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		data := (&taskGen{src: b}).doc()
		if checkTaskParseSame(t, string(data), "gpqa", data, false) {
			fast++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d of %d read in one pass", fast, n)
}
