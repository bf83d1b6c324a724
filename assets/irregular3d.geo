// irregular3d.geo -- an unstructured tetrahedral mesh of the 4 x 4 x 4 box with a
// cylindrical tunnel along y (seed 000's "Irregular" is a tetrahedralised 4^3 cube).
// Physical tags: volume 1; surfaces 1..6 for x = 0, x = 4, y = 0, y = 4, z = 0, z = 4; 7 the tunnel.
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 4, 4, 4};
Cylinder(2) = {2.6, -1, 1.4, 0, 6, 0, 0.7};
BooleanDifference(3) = { Volume{1}; Delete; }{ Volume{2}; Delete; };
e = 1e-6;
Physical Volume("box", 1) = {3};
Physical Surface("x0", 1) = Surface In BoundingBox{-e, -e, -e, e, 4 + e, 4 + e};
Physical Surface("x4", 2) = Surface In BoundingBox{4 - e, -e, -e, 4 + e, 4 + e, 4 + e};
Physical Surface("y0", 3) = Surface In BoundingBox{-e, -e, -e, 4 + e, e, 4 + e};
Physical Surface("y4", 4) = Surface In BoundingBox{-e, 4 - e, -e, 4 + e, 4 + e, 4 + e};
Physical Surface("z0", 5) = Surface In BoundingBox{-e, -e, -e, 4 + e, 4 + e, e};
Physical Surface("z4", 6) = Surface In BoundingBox{-e, -e, 4 - e, 4 + e, 4 + e, 4 + e};
Physical Surface("tunnel", 7) = Surface In BoundingBox{1.9 - e, -e, 0.7 - e, 3.3 + e, 4 + e, 2.1 + e};
Mesh.CharacteristicLengthMax = 0.15;
Mesh.CharacteristicLengthMin = 0.06;
Mesh.Algorithm3D = 1; // Delaunay
