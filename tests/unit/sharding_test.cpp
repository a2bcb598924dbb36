// Shardy's meshes and shardings as ir/sharding.h reads them: the syntax,
// device coordinates, the device groups of mesh-axes collectives, the
// piece each device holds and XLA's spelling of a layout.
#include <gtest/gtest.h>

#include "frontend/parser.h"
#include "ir/sharding.h"

namespace hlograph::ir {
namespace {

using Groups = std::vector<std::vector<int64_t>>;

Mesh TwoByTwo() { return *ParseMesh(R"(#sdy.mesh<["x"=2, "y"=2]>)"); }

ShardLayout Layout(const Mesh& mesh, const std::string& sharding, size_t rank) {
  auto s = ParseTensorSharding(sharding);
  EXPECT_TRUE(s.ok()) << s.status().message();
  auto l = LayoutOf(mesh, *s, rank);
  EXPECT_TRUE(l.ok()) << l.status().message();
  return *l;
}

TEST(Sharding, MeshCoordinatesFollowItsDeviceIds) {
  auto mesh = ParseMesh(R"(#sdy.mesh<["a"=2, "b"=3], device_ids=[5, 4, 3, 2, 1, 0]>)");
  ASSERT_TRUE(mesh.ok()) << mesh.status().message();
  EXPECT_EQ(mesh->size(), 6);
  EXPECT_EQ(*mesh->Coordinates(5), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(*mesh->Coordinates(1), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(mesh->DeviceAt({1, 2}), 0);
  EXPECT_FALSE(mesh->Coordinates(6).ok());
  EXPECT_FALSE(ParseMesh(R"(#sdy.mesh<["a"=2], device_ids=[0]>)").ok());
}

TEST(Sharding, ReadsDimensionsReplicatedAxesPrioritiesAndInlineMeshes) {
  auto s = ParseTensorSharding(R"(#sdy.sharding<@mesh, [{"x", "y"}p1, {?}, {"z":(2)4, ?}], replicated={"w"}>)");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->mesh_name, "mesh");
  ASSERT_EQ(s->dims.size(), 3u);
  EXPECT_EQ(s->dims[0].size(), 2u);
  EXPECT_TRUE(s->dims[1].empty());
  ASSERT_EQ(s->dims[2].size(), 1u);
  EXPECT_EQ(s->dims[2][0].pre_size, 2);
  EXPECT_EQ(s->dims[2][0].size, 4);
  auto inline_mesh = ParseTensorSharding(R"(#sdy.sharding<mesh<["x"=4]>, [{"x"}]>)");
  ASSERT_TRUE(inline_mesh.ok()) << inline_mesh.status().message();
  EXPECT_EQ(inline_mesh->inline_mesh->size(), 4);
  EXPECT_FALSE(ParseTensorSharding(R"(#sdy.sharding<@mesh, [{"x"}>)").ok());
}

TEST(Sharding, ReadsManualComputationAttributes) {
  auto per_value = ParseShardingPerValue(R"(#sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, []>]>)");
  ASSERT_TRUE(per_value.ok()) << per_value.status().message();
  ASSERT_EQ(per_value->size(), 2u);
  EXPECT_EQ((*per_value)[0].text, R"(#sdy.sharding<@mesh, [{"x"}, {}]>)");
  EXPECT_TRUE((*per_value)[1].dims.empty());
  EXPECT_EQ(*ParseManualAxes(R"(#sdy<manual_axes{"x", "y"}>)"), (std::vector<std::string>{"x", "y"}));
}

TEST(Sharding, MeshAxesGroupsVaryAlongTheirAxesOnly) {
  const Mesh mesh = TwoByTwo();
  auto groups = [&](const std::string& axes) {
    auto g = ParseReplicaGroupMeshAxes("#stablehlo.replica_group_mesh_axes<mesh = @m, axes = [" + axes + "]>");
    EXPECT_TRUE(g.ok()) << g.status().message();
    return *MeshAxesDeviceGroups(mesh, *g);
  };
  const std::string x = R"(#stablehlo.axis_ref<name = "x">)", y = R"(#stablehlo.axis_ref<name = "y">)";
  EXPECT_EQ(groups(y), (Groups{{0, 1}, {2, 3}}));
  EXPECT_EQ(groups(x), (Groups{{0, 2}, {1, 3}}));
  EXPECT_EQ(groups(x + ", " + y), (Groups{{0, 1, 2, 3}}));
  EXPECT_EQ(groups(y + ", " + x), (Groups{{0, 2, 1, 3}}));
  auto four = ParseMesh(R"(#sdy.mesh<["x"=4]>)");
  auto half = ParseReplicaGroupMeshAxes(
      R"(#stablehlo.replica_group_mesh_axes<mesh = @m, axes = [#stablehlo.axis_ref<name = "x", )"
      R"(sub_axis_info = #stablehlo.sub_axis_info<pre_size = 2, size = 2>>]>)");
  ASSERT_TRUE(half.ok()) << half.status().message();
  EXPECT_EQ(*MeshAxesDeviceGroups(*four, *half), (Groups{{0, 2}, {1, 3}}));
}

TEST(Sharding, EachDeviceHoldsThePieceOfItsCoordinates) {
  const ShardLayout l = Layout(TwoByTwo(), R"(#sdy.sharding<@mesh, [{"y"}, {"x"}]>)", 2);
  EXPECT_EQ(l.Counts(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(l.TileOf(*l.mesh.Coordinates(2)), (std::vector<int64_t>{0, 1}));  // x=1, y=0
  EXPECT_EQ(l.DeviceOfTile({0, 0}, {1, 1}), 3);
  EXPECT_EQ(*l.LocalShape({4, 6}), (std::vector<int64_t>{2, 3}));
  EXPECT_FALSE(l.LocalShape({3, 6}).ok());
  // Split along x only: devices along y hold the same piece, and a piece
  // is looked up among the devices sharing this one's y.
  const ShardLayout x = Layout(TwoByTwo(), R"(#sdy.sharding<@mesh, [{"x"}]>)", 1);
  EXPECT_EQ(x.DeviceOfTile(*x.mesh.Coordinates(1), {1}), 3);
}

TEST(Sharding, LayoutsSpelledAsXlaShardings) {
  const Mesh mesh = TwoByTwo();
  EXPECT_EQ(ToHloSharding(Layout(mesh, R"(#sdy.sharding<@mesh, [{}, {}]>)", 2)), "{replicated}");
  EXPECT_EQ(ToHloSharding(Layout(mesh, R"(#sdy.sharding<@mesh, [{"x"}, {}]>)", 2)),
            "{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}");
  EXPECT_EQ(ToHloSharding(Layout(mesh, R"(#sdy.sharding<@mesh, [{"y"}, {"x"}]>)", 2)), "{devices=[2,2]0,2,1,3}");
  EXPECT_EQ(ToHloSharding(Layout(mesh, R"(#sdy.sharding<@mesh, [{"x", "y"}]>)", 1)), "{devices=[4]0,1,2,3}");
}

TEST(Sharding, RefusesWhatItCannotPlace) {
  const Mesh mesh = TwoByTwo();
  auto unknown_axis = LayoutOf(mesh, *ParseTensorSharding(R"(#sdy.sharding<@mesh, [{"z"}]>)"), 1);
  ASSERT_FALSE(unknown_axis.ok());
  EXPECT_NE(unknown_axis.status().message().find("\"z\""), std::string::npos);
  EXPECT_FALSE(LayoutOf(mesh, *ParseTensorSharding(R"(#sdy.sharding<@mesh, [{"x"}]>)"), 2).ok());
  EXPECT_FALSE(LayoutOf(mesh, *ParseTensorSharding(R"(#sdy.sharding<@mesh, [{}], unreduced={"x"}>)"), 1).ok());
}

TEST(Sharding, LooksMeshesUpInTheModule) {
  auto module = frontend::ParseModule(R"(module {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func @main(%a: tensor<f32>) -> tensor<f32> {
    return %a : tensor<f32>
  }
})",
                                      "<test>");
  ASSERT_TRUE(module.ok()) << module.status().message();
  auto mesh = LookupMesh(**module, "mesh");
  ASSERT_TRUE(mesh.ok()) << mesh.status().message();
  EXPECT_EQ(mesh->size(), 8);
  EXPECT_FALSE(LookupMesh(**module, "other").ok());
}

}  // namespace
}  // namespace hlograph::ir
