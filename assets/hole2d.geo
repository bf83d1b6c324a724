// hole2d.geo -- a 2 x 1 rectangle with a circular hole (2D, P1 triangles).
// Physical tags: surface 1; curves 1 (x = 0), 2 (x = 2), 3 (y = 0 and y = 1), 4 (the hole).
SetFactory("OpenCASCADE");
Rectangle(1) = {0, 0, 0, 2, 1};
Disk(2) = {0.6, 0.5, 0, 0.25, 0.25};
BooleanDifference(3) = { Surface{1}; Delete; }{ Surface{2}; Delete; };
e = 1e-6;
Physical Surface("domain", 1) = {3};
Physical Curve("left", 1) = Curve In BoundingBox{-e, -e, -e, e, 1 + e, e};
Physical Curve("right", 2) = Curve In BoundingBox{2 - e, -e, -e, 2 + e, 1 + e, e};
Physical Curve("top_bottom", 3) = {Curve In BoundingBox{-e, -e, -e, 2 + e, e, e},
                                   Curve In BoundingBox{-e, 1 - e, -e, 2 + e, 1 + e, e}};
Physical Curve("hole", 4) = Curve In BoundingBox{0.35 - e, 0.25 - e, -e, 0.85 + e, 0.75 + e, e};
Mesh.CharacteristicLengthMax = 0.03;
Mesh.CharacteristicLengthMin = 0.01;
Mesh.CharacteristicLengthFromCurvature = 1;
