// The older destination-passing form: each op takes a trailing output
// operand made by ttir.empty (or tensor.empty); ttc drops them.
module attributes {} {
  func.func @legacy(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = ttir.empty() : tensor<64x128xf32>
    %1 = "ttir.multiply"(%arg0, %arg1, %0) <{operandSegmentSizes = array<i32: 2, 1>}> : (tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %2 = tensor.empty() : tensor<64x128xf32>
    %3 = "ttir.sigmoid"(%1, %2) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %4 = ttir.empty() : tensor<64x1xf32>
    %5 = "ttir.sum"(%3, %4) {dim_arg = [1 : i32], keep_dim = true} : (tensor<64x128xf32>, tensor<64x1xf32>) -> tensor<64x1xf32>
    %6 = ttir.empty() : tensor<64x128xf32>
    %7 = "ttir.add"(%3, %5, %6) : (tensor<64x128xf32>, tensor<64x1xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    return %7 : tensor<64x128xf32>
  }
}
