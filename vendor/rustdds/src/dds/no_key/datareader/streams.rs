// ----------------------------------------------
// ----------------------------------------------

// Async interface for the (bare) DataReader

/// Wraps [`with_key::BareDataReaderStream`](crate::with_key::BareDataReaderStream) and
/// unwraps [`Sample`](crate::with_key::Sample) and `NoKeyWrapper` on
/// `poll_next`.
pub struct BareDataReaderStream<
  D: 'static,
  DA: DeserializerAdapter<D> + 'static = CDRDeserializerAdapter<D>,
> {
  keyed_stream: WithKeyBareDataReaderStream<NoKeyWrapper<D>, DAWrapper<DA>>,
}

impl<D, DA> BareDataReaderStream<D, DA>
where
  D: 'static,
  DA: DeserializerAdapter<D>,
{
  pub fn async_event_stream(&self) -> DataReaderEventStream<D, DA> {
    DataReaderEventStream {
      keyed_stream: self.keyed_stream.async_event_stream(),
    }
  }
}

// https://users.rust-lang.org/t/take-in-impl-future-cannot-borrow-data-in-a-dereference-of-pin/52042
impl<D, DA> Unpin for BareDataReaderStream<D, DA>
where
  D: 'static,
  DA: DeserializerAdapter<D>,
{
}

impl<D, DA> Stream for BareDataReaderStream<D, DA>
where
  D: 'static,
  DA: DefaultDecoder<D>,
{
  type Item = ReadResult<D>;

  fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
    let mut keyed_stream = Pin::new(&mut Pin::into_inner(self).keyed_stream);
    loop {
      match keyed_stream.as_mut().poll_next(cx) {
        Poll::Ready(Some(Err(e))) => break Poll::Ready(Some(Err(e))),
        Poll::Ready(Some(Ok(Sample::Value(d)))) => break Poll::Ready(Some(Ok(d.d))), /* Unwraps Sample and NoKeyWrapper */
        // Disposed data is ignored. However, we just received a `Poll::Ready(..)`,
        // which means we cannot return `Poll::Pending`, because the Ready result
        // has not left a waker behind to wake us up. Therefore, we need to loop
        // and try again until we get a returnable result or Pending.
        Poll::Ready(Some(Ok(Sample::Dispose(_)))) => (), // continue looping
        Poll::Ready(None) => break Poll::Ready(None),    // This should never happen
        Poll::Pending => break Poll::Pending,
      }
    } // loop
  }
}

impl<D, DA> FusedStream for BareDataReaderStream<D, DA>
where
  D: 'static,
  DA: DefaultDecoder<D>,
{
  fn is_terminated(&self) -> bool {
    false // Never terminate. This means it is always valid to call poll_next().
  }
}

// Async interface for the (non-bare) DataReader

/// Wraps [`with_key::DataReaderStream`](crate::with_key::DataReaderStream) and
/// unwraps [`Sample`](crate::with_key::Sample) and `NoKeyWrapper` on
/// `poll_next`.
pub struct DataReaderStream<
  D: 'static,
  DA: DeserializerAdapter<D> + 'static = CDRDeserializerAdapter<D>,
> {
  keyed_stream: WithKeyDataReaderStream<NoKeyWrapper<D>, DAWrapper<DA>>,
}

impl<D, DA> DataReaderStream<D, DA>
where
  D: 'static,
  DA: DeserializerAdapter<D>,
{
  pub fn async_event_stream(&self) -> DataReaderEventStream<D, DA> {
    DataReaderEventStream {
      keyed_stream: self.keyed_stream.async_event_stream(),
    }
  }
}

// https://users.rust-lang.org/t/take-in-impl-future-cannot-borrow-data-in-a-dereference-of-pin/52042
impl<D, DA> Unpin for DataReaderStream<D, DA>
where
  D: 'static,
  DA: DeserializerAdapter<D>,
{
}

impl<D, DA> Stream for DataReaderStream<D, DA>
where
  D: 'static,
  DA: DefaultDecoder<D>,
{
  type Item = ReadResult<DataSample<D>>;

  fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
    let mut keyed_stream = Pin::new(&mut Pin::into_inner(self).keyed_stream);
    loop {
      match keyed_stream.as_mut().poll_next(cx) {
        Poll::Ready(Some(Err(e))) => break Poll::Ready(Some(Err(e))),
        Poll::Ready(Some(Ok(d))) => match d.value() {
          Sample::Value(_) => match DataSample::<D>::from_with_key(d) {
            Some(d) => break Poll::Ready(Some(Ok(d))),
            None => break Poll::Ready(None), // This should never happen
          },
          // Disposed data is ignored. However, we just received a `Poll::Ready(..)`,
          // which means we cannot return `Poll::Pending`, because the Ready result
          // has not left a waker behind to wake us up. Therefore, we need to loop
          // and try again until we get a returnable result or Pending.
          Sample::Dispose(_) => (),
        },
        Poll::Ready(None) => break Poll::Ready(None), // This should never happen
        Poll::Pending => break Poll::Pending,
      }
    } // loop
  }
}

impl<D, DA> FusedStream for DataReaderStream<D, DA>
where
  D: 'static,
  DA: DefaultDecoder<D>,
{
  fn is_terminated(&self) -> bool {
    false // Never terminate. This means it is always valid to call poll_next().
  }
}

// ----------------------------------------------------------------------------------------------------
// ----------------------------------------------------------------------------------------------------

/// Wraps [`with_key::DataReaderEventStream`](crate::with_key::DataReaderEventStream).
pub struct DataReaderEventStream<
  D: 'static,
  DA: DeserializerAdapter<D> + 'static = CDRDeserializerAdapter<D>,
> {
  keyed_stream: WithKeyDataReaderEventStream<NoKeyWrapper<D>, DAWrapper<DA>>,
}

impl<D, DA> Stream for DataReaderEventStream<D, DA>
where
  D: 'static,
  DA: DeserializerAdapter<D>,
{
  type Item = DataReaderStatus;

  fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
    Pin::new(&mut Pin::into_inner(self).keyed_stream).poll_next(cx)
  }
}

impl<D, DA> FusedStream for DataReaderEventStream<D, DA>
where
  D: 'static,
  DA: DeserializerAdapter<D>,
{
  fn is_terminated(&self) -> bool {
    false // Never terminate. This means it is always valid to call poll_next().
  }
}
