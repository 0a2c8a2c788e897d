package oni

import (
	"strings"
	"testing"

	"github.com/animbake/bake/import/oni/oniwrite"
)

func animationNames(fileAnims []string) string { return strings.Join(fileAnims, ",") }

// oni-container.md §3: the instance's own name without "OBAN"; else the
// referring OBOA element's name (+0x70), DOOR/TRIG class name + "_anim",
// OBDC name + "_<element>"; else OBAN_level<N>_<index>. Placeholders are
// skipped with a notice.
func TestNamingFromReferrers(t *testing.T) {
	p := probe(0)
	data := levelWith(
		oniwrite.ObanInstance("named", p),  // 0: own name
		oniwrite.ObanInstance("", p),       // 1: OBOA element "forklift" (OBOA wins over DOOR)
		oniwrite.ObanInstance("", p),       // 2: DOOR "hall"
		oniwrite.ObanInstance("", p),       // 3: TRIG "laser"
		oniwrite.ObanInstance("", p),       // 4: OBDC "doors", element 1
		oniwrite.ObanInstance("", p),       // 5: nobody: OBAN_level3_5
		oniwrite.Placeholder("OBAN", "gd"), // 6: placeholder, skipped
		oniwrite.OBOAInstance("", []oniwrite.ObjectSetup{{Anim: -1, Name: "crate"}, {Anim: 1, Name: "forklift"}, {Anim: 0, Name: "not_used"}}),
		oniwrite.DOORInstance("hall", 2),
		oniwrite.DOORInstance("other", 1),
		oniwrite.TRIGInstance("laser", 3),
		oniwrite.OBDCInstance("doors", []int{-1, 4}),
	)
	f, warns := decodeBytes(t, "level3_Final.dat", data)
	var got []string
	for _, a := range f.Animations {
		got = append(got, a.Name+"/"+a.Extras["namedBy"].(string))
	}
	want := "named/instance,forklift/OBOA,hall_anim/DOOR,laser_anim/TRIG,doors_1/OBDC,OBAN_level3_5/index"
	if animationNames(got) != want {
		t.Errorf("names:\n got %s\nwant %s", animationNames(got), want)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "placeholder") || !strings.Contains(warns[0], "OBANgd") {
		t.Errorf("notices %q, want one about the placeholder OBANgd", warns)
	}
	if f.Extras["placeholders"] != 1 || f.Extras["version"] != "VR31" || f.Extras["platform"] != "pc" {
		t.Errorf("file extras %v", f.Extras)
	}
}

// Names stay unique across the file, including the helper nodes: an OBOA
// name equal to an instance name gets "_2", and a name whose _motion node
// would collide with another animation's node moves on too.
func TestNamesAreUnique(t *testing.T) {
	p := probe(0)
	data := levelWith(
		oniwrite.ObanInstance("fan", p),
		oniwrite.ObanInstance("", p),
		oniwrite.ObanInstance("x_motion", p),
		oniwrite.ObanInstance("x", p),
		oniwrite.OBOAInstance("", []oniwrite.ObjectSetup{{Anim: 1, Name: "fan"}}),
	)
	f, _ := decodeBytes(t, "level3_Final.dat", data)
	var got []string
	for _, a := range f.Animations {
		got = append(got, a.Name)
	}
	if want := "fan,fan_2,x_motion,x_2"; animationNames(got) != want {
		t.Errorf("names %s, want %s", animationNames(got), want)
	}
}

// oni-container.md §2: a VR32 file names its main instance from the name
// table; an unnamed one falls back to the decoded file name.
func TestOniFileNames(t *testing.T) {
	named := (&oniwrite.File{Kind: oniwrite.OniFile, Instances: []oniwrite.Instance{oniwrite.ObanInstance("door_open", probe(0))}}).Bytes()
	f, _ := decodeBytes(t, "whatever.oni", named)
	if f.Animations[0].Name != "door_open" || f.Extras["version"] != "VR32" {
		t.Errorf("name %q version %v", f.Animations[0].Name, f.Extras["version"])
	}
	unnamed := (&oniwrite.File{Kind: oniwrite.OniFile, Instances: []oniwrite.Instance{oniwrite.ObanInstance("", probe(0))}}).Bytes()
	f, _ = decodeBytes(t, "dir/OBANmy%20door.oni", unnamed)
	if a := f.Animations[0]; a.Name != "my door" || a.Extras["namedBy"] != "fileName" {
		t.Errorf("fallback name %q (%v), want \"my door\" from the file name", a.Name, a.Extras["namedBy"])
	}
}

// A level file whose OBANs are all placeholders gives an empty file with
// one notice each, not an error.
func TestOnlyPlaceholders(t *testing.T) {
	f, warns := decodeBytes(t, "level3_Final.dat", levelWith(oniwrite.Placeholder("OBAN", "a"), oniwrite.Placeholder("OBAN", "b")))
	if len(f.Animations) != 0 || len(warns) != 2 {
		t.Errorf("%d animations, notices %q", len(f.Animations), warns)
	}
}

// A malformed referrer only costs its names, with a notice.
func TestMalformedReferrerIsANotice(t *testing.T) {
	bad := oniwrite.OBOAInstance("", []oniwrite.ObjectSetup{{Anim: 0, Name: "x"}})
	bad.Data = bad.Data[:0x18+100] // count says 1 element of 240 bytes
	// Padding to 32 bytes would hide the cut; count 2 makes it certain.
	bad.Data[0x16] = 2
	f, warns := decodeBytes(t, "level3_Final.dat", levelWith(oniwrite.ObanInstance("", probe(0)), bad))
	if f.Animations[0].Name != "OBAN_level3_0" || len(warns) != 1 || !strings.Contains(warns[0], "OBOA") {
		t.Errorf("name %q, notices %q", f.Animations[0].Name, warns)
	}
}
