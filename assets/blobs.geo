// blobs.geo -- two materials like seed 000's "Blobs": three spheres (about 20% of
// the volume) inside the 4 x 4 x 4 box, meshed conformingly across the interface.
// Physical tags: volume 1 outside the blobs, 2 inside; surfaces 1..6 for the box
// sides x = 0, x = 4, y = 0, y = 4, z = 0, z = 4.
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 4, 4, 4};
Sphere(2) = {1.1, 1.1, 1.1, 1.0};
Sphere(3) = {2.9, 2.9, 1.2, 1.0};
Sphere(4) = {1.5, 2.8, 2.9, 1.0};
v() = BooleanFragments{ Volume{1}; Delete; }{ Volume{2, 3, 4}; Delete; };
e = 1e-6;
Physical Volume("blobs", 2) = {2, 3, 4};
Physical Volume("outside", 1) = {v(#v() - 1)};
Physical Surface("x0", 1) = Surface In BoundingBox{-e, -e, -e, e, 4 + e, 4 + e};
Physical Surface("x4", 2) = Surface In BoundingBox{4 - e, -e, -e, 4 + e, 4 + e, 4 + e};
Physical Surface("y0", 3) = Surface In BoundingBox{-e, -e, -e, 4 + e, e, 4 + e};
Physical Surface("y4", 4) = Surface In BoundingBox{-e, 4 - e, -e, 4 + e, 4 + e, 4 + e};
Physical Surface("z0", 5) = Surface In BoundingBox{-e, -e, -e, 4 + e, 4 + e, e};
Physical Surface("z4", 6) = Surface In BoundingBox{-e, -e, 4 - e, 4 + e, 4 + e, 4 + e};
Mesh.CharacteristicLengthMax = 0.15;
Mesh.CharacteristicLengthMin = 0.06;
