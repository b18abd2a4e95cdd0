// Scaled dot-product attention for one head, decomposed, f32: reshapes,
// transposes, broadcasting, reductions, where, concat and slices.
module {
  func.func @attention(%q: tensor<1x32x64xf32>, %k: tensor<1x32x64xf32>, %v: tensor<1x32x64xf32>, %mask: tensor<1x32x32xi1>) -> tensor<1x32x128xf32> {
    %0 = "ttir.transpose"(%k) <{dim0 = -2 : si32, dim1 = -1 : si32}> : (tensor<1x32x64xf32>) -> tensor<1x64x32xf32>
    %1 = "ttir.matmul"(%q, %0) : (tensor<1x32x64xf32>, tensor<1x64x32xf32>) -> tensor<1x32x32xf32>
    %2 = "ttir.constant"() <{value = dense<1.250000e-01> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %3 = "ttir.multiply"(%1, %2) : (tensor<1x32x32xf32>, tensor<1x1x1xf32>) -> tensor<1x32x32xf32>
    %4 = "ttir.full"() <{fill_value = -1.000000e+09 : f32, shape = array<i32: 1, 32, 32>}> : () -> tensor<1x32x32xf32>
    %5 = "ttir.where"(%mask, %3, %4) : (tensor<1x32x32xi1>, tensor<1x32x32xf32>, tensor<1x32x32xf32>) -> tensor<1x32x32xf32>
    %6 = "ttir.max"(%5) <{dim_arg = [2 : i32], keep_dim = true}> : (tensor<1x32x32xf32>) -> tensor<1x32x1xf32>
    %7 = "ttir.subtract"(%5, %6) : (tensor<1x32x32xf32>, tensor<1x32x1xf32>) -> tensor<1x32x32xf32>
    %8 = "ttir.exp"(%7) : (tensor<1x32x32xf32>) -> tensor<1x32x32xf32>
    %9 = "ttir.sum"(%8) <{dim_arg = [-1 : i32], keep_dim = true}> : (tensor<1x32x32xf32>) -> tensor<1x32x1xf32>
    %10 = "ttir.div"(%8, %9) : (tensor<1x32x32xf32>, tensor<1x32x1xf32>) -> tensor<1x32x32xf32>
    %11 = "ttir.matmul"(%10, %v) : (tensor<1x32x32xf32>, tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
    %12 = "ttir.slice_static"(%11) <{begins = [0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 32 : i32, 64 : i32], step = [1 : i32, 1 : i32, 2 : i32]}> : (tensor<1x32x64xf32>) -> tensor<1x32x32xf32>
    %13 = "ttir.reshape"(%12) <{shape = [1 : i32, 32 : i32, 32 : i32, 1 : i32]}> : (tensor<1x32x32xf32>) -> tensor<1x32x32x1xf32>
    %14 = "ttir.broadcast"(%13) <{broadcast_dimensions = array<i64: 1, 1, 1, 2>}> : (tensor<1x32x32x1xf32>) -> tensor<1x32x32x2xf32>
    %15 = "ttir.reshape"(%14) <{shape = [1 : i32, 32 : i32, 64 : i32]}> : (tensor<1x32x32x2xf32>) -> tensor<1x32x64xf32>
    %16 = "ttir.concat"(%11, %15) <{dim = 2 : si32}> : (tensor<1x32x64xf32>, tensor<1x32x64xf32>) -> tensor<1x32x128xf32>
    return %16 : tensor<1x32x128xf32>
  }
}
