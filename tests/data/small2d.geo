// small2d.geo -- the unit square with a circular hole, coarse (test fixture for the .msh readers).
// Physical tags: surface 1; curves 1 (x = 0), 2 (x = 1), 3 (the rest of the outside), 4 (the hole).
SetFactory("OpenCASCADE");
Rectangle(1) = {0, 0, 0, 1, 1};
Disk(2) = {0.5, 0.5, 0, 0.2, 0.2};
BooleanDifference(3) = { Surface{1}; Delete; }{ Surface{2}; Delete; };
e = 1e-6;
Physical Surface("domain", 1) = {3};
Physical Curve("left", 1) = Curve In BoundingBox{-e, -e, -e, e, 1 + e, e};
Physical Curve("right", 2) = Curve In BoundingBox{1 - e, -e, -e, 1 + e, 1 + e, e};
Physical Curve("top_bottom", 3) = {Curve In BoundingBox{-e, -e, -e, 1 + e, e, e},
                                   Curve In BoundingBox{-e, 1 - e, -e, 1 + e, 1 + e, e}};
Physical Curve("hole", 4) = Curve In BoundingBox{0.3 - e, 0.3 - e, -e, 0.7 + e, 0.7 + e, e};
Mesh.CharacteristicLengthMax = 0.25;
