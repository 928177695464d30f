package core

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestValueAccessors(t *testing.T) {
	if !Null().IsNull() || Null() != (Value{}) {
		t.Fatal("zero Value is not null")
	}
	if v := Int32(-7); v.Kind() != KindInt32 || v.Int() != -7 || v.String() != "-7" || v.Float() != -7 {
		t.Errorf("Int32(-7) = %v", v)
	}
	if v := Int64(math.MinInt64); v.Int() != math.MinInt64 {
		t.Errorf("Int64 min = %d", v.Int())
	}
	if v := Float64(2.5); v.Float() != 2.5 || v.Int() != 0 || v.String() != "2.5" {
		t.Errorf("Float64(2.5) = %v", v)
	}
	if v := String("bash"); v.Str() != "bash" || v.Kind() != KindString {
		t.Errorf("String = %v", v)
	}
	if Int32(1) == Int64(1) {
		t.Error("values of different kinds compare equal")
	}
	if String("a") != String("a") || Float64(math.NaN()) != Float64(math.NaN()) {
		t.Error("equal values compare different")
	}
}

func TestCheckValue(t *testing.T) {
	for _, ok := range []Value{Null(), Int32(1), String(""), String(strings.Repeat("x", MaxStringLen)), String("héllo")} {
		if err := CheckValue(ok); err != nil {
			t.Errorf("CheckValue(%v) = %v", ok, err)
		}
	}
	for _, bad := range []Value{String(strings.Repeat("x", MaxStringLen+1)), String("\xff\xfe"), {kind: 9}} {
		if err := CheckValue(bad); !errors.Is(err, ErrBadValue) {
			t.Errorf("CheckValue(%q) = %v, want ErrBadValue", bad.str, err)
		}
	}
}
