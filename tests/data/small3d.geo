// small3d.geo -- the unit cube, coarse unstructured tetrahedra (test fixture for the .msh readers).
// Physical tags: volume 1; sides 1 (x = 0), 2 (x = 1), 3 (the other four).
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
e = 1e-6;
Physical Volume("domain", 1) = {1};
Physical Surface("left", 1) = Surface In BoundingBox{-e, -e, -e, e, 1 + e, 1 + e};
Physical Surface("right", 2) = Surface In BoundingBox{1 - e, -e, -e, 1 + e, 1 + e, 1 + e};
Physical Surface("other", 3) = {Surface In BoundingBox{-e, -e, -e, 1 + e, e, 1 + e},
                                Surface In BoundingBox{-e, 1 - e, -e, 1 + e, 1 + e, 1 + e},
                                Surface In BoundingBox{-e, -e, -e, 1 + e, 1 + e, e},
                                Surface In BoundingBox{-e, -e, 1 - e, 1 + e, 1 + e, 1 + e}};
Mesh.CharacteristicLengthMin = 0.5;
Mesh.CharacteristicLengthMax = 0.5;
