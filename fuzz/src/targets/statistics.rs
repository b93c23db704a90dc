//! `Statistics` addition: order by order, checked, and unchanged when it fails.

use arbitrary::Arbitrary;
use chrf_core::{ChrfError, OrderCounts, Statistics};

#[derive(Arbitrary, Debug)]
pub struct Input {
    pub left: Vec<(u128, u128, u128)>,
    pub right: Vec<(u128, u128, u128)>,
    /// Draw counts near `u128::MAX` (else small ones, whose sums never overflow).
    pub huge: bool,
}

pub fn check(input: &Input) {
    let stats = |triples: &[(u128, u128, u128)]| {
        let scale = |c: u128| if input.huge { c } else { c >> 100 };
        Statistics::from_orders(
            triples
                .iter()
                .map(|&(h, r, m)| OrderCounts {
                    hypothesis: scale(h),
                    reference: scale(r),
                    matching: scale(m),
                })
                .collect(),
        )
    };
    let (left, right) = (stats(&input.left), stats(&input.right));
    let expected: Option<Vec<OrderCounts>> = left
        .orders()
        .iter()
        .zip(right.orders())
        .map(|(a, b)| {
            Some(OrderCounts {
                hypothesis: a.hypothesis.checked_add(b.hypothesis)?,
                reference: a.reference.checked_add(b.reference)?,
                matching: a.matching.checked_add(b.matching)?,
            })
        })
        .collect();

    let mut sum = left.clone();
    let result = sum.checked_add_assign(&right);
    if left.orders().len() != right.orders().len() {
        assert_eq!(
            result,
            Err(ChrfError::OrderCountMismatch {
                expected: left.orders().len(),
                found: right.orders().len()
            })
        );
        assert_eq!(sum, left);
        return;
    }
    match expected {
        Some(orders) => {
            assert_eq!(result, Ok(()));
            assert_eq!(sum.orders(), orders.as_slice());
            // Addition commutes.
            assert_eq!(right.clone().checked_add(&left), Ok(sum));
        }
        None => {
            assert_eq!(result, Err(ChrfError::CountOverflow));
            assert_eq!(sum, left, "a failed addition leaves the sum unchanged");
        }
    }
    assert_eq!(
        Statistics::zeros(left.orders().len()).and_then(|zeros| zeros.checked_add(&left)),
        Ok(left.clone())
    );
}
