package kstats

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Outcomes counts a system call's returns by outcome, sorted by name. It
// is a slice, not a map: a report at tens of thousands of threads holds
// hundreds of thousands of them, which as maps were most of the time a
// stored report took to decode. Its JSON is an object, as a map's.
type Outcomes []Outcome

// Outcome is the number of calls that ended one way: "success" or an
// errno name ("ENOENT").
type Outcome struct {
	Name string
	N    int64
}

// Count returns the calls that ended with name.
func (o Outcomes) Count(name string) int64 {
	for _, x := range o {
		if x.Name == name {
			return x.N
		}
	}
	return 0
}

// MarshalJSON writes {"name": count, ...} in name order (null when nil),
// what encoding/json writes for a map.
func (o Outcomes) MarshalJSON() ([]byte, error) {
	if o == nil {
		return []byte("null"), nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, x := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		name, err := json.Marshal(x.Name)
		if err != nil {
			return nil, err
		}
		b.Write(name)
		b.WriteByte(':')
		b.WriteString(strconv.FormatInt(x.N, 10))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
