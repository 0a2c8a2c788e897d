package oniwrite

import (
	"math"

	"github.com/animbake/bake/internal/demofiles"
)

// NamedFile is a demo input: a file name and its bytes.
type NamedFile = demofiles.File

// AxisAngle returns the stored form of a rotation by angle radians about
// the unit axis (x, y, z): the Hamilton (axis·sin(θ/2), cos(θ/2)) with w
// negated, rounded to float32.
func AxisAngle(x, y, z, angle float64) [4]float32 {
	s, c := math.Sincos(angle / 2)
	return Stored([4]float32{float32(x * s), float32(y * s), float32(z * s), float32(c)})
}

// DemoDoor is a lab door: 3ds Max Z-up data (flag 0x10) that swings 90°
// about its Max z axis by frame 50 (the half-stop frame, "open") and back
// by frame 99.
func DemoDoor() *Oban {
	o := &Oban{Flags: FlagLocalized, Start: Identity, Base: Identity, TicksPerFrame: 80, Frames: 100, HalfStopFrame: 50}
	for _, k := range []struct {
		frame uint32
		deg   float64
	}{{0, 0}, {25, 45}, {50, 90}, {75, 45}, {99, 0}} {
		o.Keys = append(o.Keys, Key{Quaternion: AxisAngle(0, 0, 1, k.deg*math.Pi/180), Position: [3]float32{0, 0, 0}, Frame: k.frame})
	}
	return o
}

// DemoFan is a warehouse fan turning once a second about y, looping, with a
// base scale of 2.
func DemoFan() *Oban {
	o := &Oban{Flags: FlagLoop, Start: Identity, Base: Scale(2, 2, 2), TicksPerFrame: 80, Frames: 60}
	for _, f := range []uint32{0, 15, 30, 45, 59} {
		o.Keys = append(o.Keys, Key{Quaternion: AxisAngle(0, 1, 0, 2*math.Pi*float64(f)/60), Position: [3]float32{120, 40, -35}, Frame: f})
	}
	o.Start[9], o.Start[10], o.Start[11] = 120, 40, -35
	return o
}

// DemoLift is a cargo lift going up 30 units and back (ping-pong); its base
// matrix turns the model a quarter about y, so it is not a pure scale.
func DemoLift() *Oban {
	base := Matrix{0, 0, -1, 0, 1, 0, 1, 0, 0, 0, 0, 0}
	o := &Oban{Flags: FlagPingPong, Start: Identity, Base: base, TicksPerFrame: 80, Frames: 120}
	o.Keys = []Key{
		{Quaternion: AxisAngle(0, 1, 0, 0), Position: [3]float32{-50, 0, 80}, Frame: 0},
		{Quaternion: AxisAngle(0, 1, 0, 0), Position: [3]float32{-50, 30, 80}, Frame: 119},
	}
	o.Start[9], o.Start[10], o.Start[11] = -50, 0, 80
	return o
}

// DemoCamera is a five-second camera fly-by: it sweeps past the scene
// while turning 120° to keep it in view and dipping its nose.
func DemoCamera() *Oban {
	o := &Oban{Start: Identity, Base: Identity, TicksPerFrame: 80, Frames: 300}
	for i, f := range []uint32{0, 75, 150, 225, 299} {
		u := float64(i) / 4
		yaw := (-60 + 120*u) * math.Pi / 180
		pitch := -10 * math.Sin(math.Pi*u) * math.Pi / 180
		// Hamilton yaw (about y) times pitch (about x), then stored.
		sy, cy := math.Sincos(yaw / 2)
		sp, cp := math.Sincos(pitch / 2)
		h := [4]float32{float32(cy * sp), float32(sy * cp), float32(-sy * sp), float32(cy * cp)}
		pos := [3]float32{float32(-200 + 400*u), float32(60 - 20*u), float32(150 - 100*math.Sin(math.Pi*u))}
		o.Keys = append(o.Keys, Key{Quaternion: Stored(h), Position: pos, Frame: f})
	}
	return o
}

// DemoLevel is a level file (level1_Final.dat) with the four demo
// animations: the door and camera named, the lift named, the fan unnamed
// but named by the OBOA object that plays it, plus a door class, a
// placeholder for a door animation that lives in level0, and an OBOA
// element without an animation.
func DemoLevel() *File {
	return &File{Kind: LevelFile, Level: 1, Instances: []Instance{
		ObanInstance("door_lab", DemoDoor()),    // 0
		ObanInstance("", DemoFan()),             // 1
		ObanInstance("lift_cargo", DemoLift()),  // 2
		ObanInstance("cam_flyby", DemoCamera()), // 3
		Placeholder("OBAN", "door_global"),      // 4
		DOORInstance("lab_door", 0),             // 5
		OBOAInstance("", []ObjectSetup{ // 6
			{Anim: 1, Name: "warehouse_fan"},
			{Anim: 2, Name: "cargo_lift"},
			{Anim: -1, Name: "crate"},
		}),
	}}
}

// Demo returns the demo inputs written to testdata/demo/oni: the level
// file and two OniSplit-style .oni files.
func Demo() []NamedFile {
	return []NamedFile{
		{Name: "level1_Final.dat", Data: DemoLevel().Bytes()},
		{Name: "OBANdoor_lab.oni", Data: (&File{Kind: OniFile, Instances: []Instance{ObanInstance("door_lab", DemoDoor())}}).Bytes()},
		{Name: "OBANcam_flyby.oni", Data: (&File{Kind: OniFile, Instances: []Instance{ObanInstance("cam_flyby", DemoCamera())}}).Bytes()},
	}
}
