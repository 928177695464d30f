package ctf

import (
	"fmt"
	"io"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// randWide returns a random value for a size-bit integer, signed or not:
// often all ones, all zeros or a single bit, else random bits.
func randWide(rng *rand.Rand, size int, signed bool) *big.Int {
	v := new(big.Int)
	switch rng.IntN(4) {
	case 0:
		v.SetInt64(-1)
	case 1:
		v.SetBit(v, rng.IntN(size), 1)
	case 2:
	default:
		for i := 0; i < size; i++ {
			v.SetBit(v, i, uint(rng.IntN(2)))
		}
	}
	if signed && v.Bit(size-1) == 1 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(size)))
	}
	return v
}

// TestWideIntProperty: integers of random sizes, alignments, byte orders
// and signs, written bit by bit from math/big values after a random
// number of padding bits, decode (in Event.Fields and in dump's text) to
// the hexadecimal of their bits; the same streams cut short anywhere give
// a one-line error, never a panic.
func TestWideIntProperty(t *testing.T) {
	rng := coretest.Rand(t)
	for iter := 0; iter < 50; iter++ {
		size := 65 + rng.IntN(400)
		if rng.IntN(8) == 0 {
			size = 1024
		}
		align := 1 << rng.IntN(7)
		be, signed := rng.IntN(2) == 0, rng.IntN(2) == 0
		pad := rng.IntN(8)
		order := "le"
		if be {
			order = "be"
		}
		events := fmt.Sprintf(`event { name = "w"; id = 0; fields := struct {
			integer { size = 8; align = 8; byte_order = %[4]s; } p;
			integer { size = %[5]d; align = 1; byte_order = %[4]s; } pad;
			integer { size = %[1]d; align = %[2]d; signed = %[3]t; byte_order = %[4]s; } x;
			uint8_t n; }; };`, size, align, signed, order, max(pad, 1))
		var vals []*big.Int
		p := stdPacket(0, t0, 0, 0)
		ctxEnd := p.w.pos
		var ends []int64 // bit offset after each event
		for k := 0; k < 3; k++ {
			v := randWide(rng, size, signed)
			vals = append(vals, v)
			w := p.event(0, t0+uint64(k))
			w.align(max(align, 8))
			w.u(0xA5, 8, 8, be)
			w.u(0, max(pad, 1), 1, be)
			w.putWide(v, size, align, be)
			w.u8(uint64(k))
			ends = append(ends, w.pos)
		}
		meta, stream := []byte(stdPrelude+stdStream+events), p.finish()
		desc := fmt.Sprintf("size %d align %d be %v signed %v pad %d", size, align, be, signed, pad)
		r, err := openMem(meta, stream)
		if err != nil {
			t.Fatalf("%s: %v", desc, err)
		}
		xi := r.traces[0].plan.streams[0].events[0].class.FieldIndex("x")
		var got []string
		for k := range vals {
			ev, err := r.Next()
			if err != nil {
				t.Fatalf("%s: event %d: %v", desc, k, err)
			}
			if f := ev.Fields[xi]; f.Kind != core.FieldString || string(f.Bytes) != wideHex(vals[k], size) {
				t.Fatalf("%s: event %d: field x = %v %q, want %s", desc, k, f.Kind, f.Bytes, wideHex(vals[k], size))
			}
			got = append(got, string(ev.Fields[xi].Bytes))
			text := string(r.AppendContents(nil, ev))
			if want := "x = " + wideHex(vals[k], size) + ","; !strings.Contains(text, want) {
				t.Fatalf("%s: event %d prints %s, want %s", desc, k, text, want)
			}
		}
		// Bytes of earlier events stay as they were (the buffer is never
		// overwritten), although the contract only promises the last.
		for k, g := range got {
			if g != wideHex(vals[k], size) {
				t.Fatalf("%s: event %d's text changed to %s", desc, k, g)
			}
		}
		r.Close()

		// The content cut short anywhere after the packet context: the
		// events before the cut decode, the one it crosses is refused
		// (a cut between two events is a clean end).
		for k := 0; k < 5; k++ {
			cut := append([]byte(nil), stream...)
			end := ctxEnd + rng.Int64N(p.content-ctxEnd)
			w := bitbuf{b: cut}
			w.patch64(p.sizesAt, uint64(end))
			r, err := openMem(meta, cut)
			if err != nil {
				t.Fatalf("%s, content cut at bit %d: %v", desc, end, err)
			}
			whole, between := 0, end == ctxEnd // events before the cut; the cut is between two
			for _, e := range ends {
				if e <= end {
					whole, between = whole+1, e == end
				}
			}
			n := 0
			for ; ; n++ {
				ev, err := r.Next()
				if err != nil {
					if strings.Contains(err.Error(), "\n") || (err == io.EOF) != between {
						t.Fatalf("%s, content cut at bit %d: error %q after %d events", desc, end, err, n)
					}
					break
				}
				r.AppendContents(nil, ev)
			}
			if n != whole {
				t.Fatalf("%s, content cut at bit %d: %d events decoded, want %d", desc, end, n, whole)
			}
			r.Close()
		}
	}
}

// TestWidePacketContext: a wide integer of the packet context keeps its
// text in every event of the packet, although events in between decode
// wide integers of their own.
func TestWidePacketContext(t *testing.T) {
	ctxVal, evVal := widePattern(200, 3), widePattern(200, 90)
	meta := strings.Replace(stdPrelude+stdStream, "uint32_t cpu_id;", "uint32_t cpu_id;\n\t\tinteger { size = 200; align = 8; } tag;", 1) +
		`event { name = "w"; id = 0; fields := struct { integer { size = 200; align = 8; } x; }; };`
	p := stdPacket(0, t0, 0, 0)
	p.w.putWide(ctxVal, 200, 8, false)
	for k := 0; k < 2*wideChunk/50; k++ {
		p.event(0, t0+uint64(k)).putWide(evVal, 200, 8, false)
	}
	r, err := openMem([]byte(meta), p.finish())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cls := r.traces[0].plan.streams[0].events[0].class
	ti, xi := cls.FieldIndex("packet.tag"), cls.FieldIndex("x")
	if ti < 0 || xi < 0 {
		t.Fatalf("fields %v", cls.Fields)
	}
	for k := 0; ; k++ {
		ev, err := r.Next()
		if err != nil {
			if k != 2*wideChunk/50 {
				t.Fatalf("event %d: %v", k, err)
			}
			break
		}
		if g, w := string(ev.Fields[ti].Bytes), wideHex(ctxVal, 200); g != w {
			t.Fatalf("event %d: packet.tag = %s, want %s", k, g, w)
		}
		if g, w := string(ev.Fields[xi].Bytes), wideHex(evVal, 200); g != w {
			t.Fatalf("event %d: x = %s, want %s", k, g, w)
		}
	}
}
